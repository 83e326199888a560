#pragma once
// Reads an MCAP file (https://mcap.dev/spec) front to back: whole files, and truncated
// prefixes (a recorder killed before it wrote the summary). It hands Schema, Channel,
// Message and Metadata records to a visitor, checks record framing, chunk CRCs, the
// data-section CRC, the summary CRC and the trailing magic, and stops at the first record
// that is incomplete (truncated) or wrong (corrupt), reporting where and why: nothing after
// a torn record is ever handed on. Chunks must be uncompressed (what hilsim writes).
// Thread-safety: read_mcap is reentrant; one visitor per call.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/record/byte_io.hpp"

namespace hil::io::record {

struct McapSchema {
  std::uint16_t id = 0;
  std::string name, encoding;
  std::span<const std::uint8_t> data;  ///< valid while the file's bytes are
};

struct McapChannel {
  std::uint16_t id = 0, schema_id = 0;
  std::string topic, message_encoding;
  StringMap metadata;
};

struct McapMessage {
  std::uint16_t channel_id = 0;
  std::uint32_t sequence = 0;
  std::uint64_t log_time = 0, publish_time = 0;
  std::span<const std::uint8_t> data;  ///< valid while the file's bytes are
};

struct McapStatistics {
  std::uint64_t message_count = 0;
  std::uint16_t schema_count = 0;
  std::uint32_t channel_count = 0, attachment_count = 0, metadata_count = 0, chunk_count = 0;
  std::uint64_t message_start_time = 0, message_end_time = 0;
  std::vector<std::pair<std::uint16_t, std::uint64_t>> channel_message_counts;
};

class McapVisitor {
 public:
  virtual ~McapVisitor() = default;
  McapVisitor() = default;
  McapVisitor(const McapVisitor&) = delete;
  McapVisitor& operator=(const McapVisitor&) = delete;

  /// Each schema and channel once (by id), before any message that uses it.
  virtual void on_schema(const McapSchema& /*schema*/) {}
  virtual void on_channel(const McapChannel& /*channel*/) {}
  virtual void on_message(const McapMessage& /*message*/) {}
  virtual void on_metadata(std::string_view /*name*/, const StringMap& /*metadata*/) {}
  /// After each top-level record: bytes read so far of `total`.
  virtual void on_progress(std::uint64_t /*offset*/, std::uint64_t /*total*/) {}
};

enum class McapEnd : std::uint8_t {
  complete,   ///< footer and trailing magic found, every CRC matched
  truncated,  ///< the file stops inside a record or before the footer (e.g. after SIGKILL)
  corrupt,    ///< a record is malformed or a CRC does not match
};

[[nodiscard]] std::string_view to_string(McapEnd end) noexcept;

struct McapReadReport {
  McapEnd end = McapEnd::corrupt;
  std::string problem;            ///< why the end is not `complete`, with the byte offset
  std::uint64_t valid_bytes = 0;  ///< length of the prefix of complete, checked records
  std::string profile, library;   ///< from the Header
  std::uint64_t messages = 0, chunks = 0;
  bool data_crc_checked = false, summary_crc_checked = false;
  std::optional<McapStatistics> statistics;  ///< from the summary, when there is one
};

/// Reads `file` (the whole file's bytes) record by record. Never throws on bad input: the
/// report says what was wrong and where. Exceptions thrown by the visitor propagate.
[[nodiscard]] McapReadReport read_mcap(std::span<const std::uint8_t> file, McapVisitor& visitor);

}  // namespace hil::io::record
