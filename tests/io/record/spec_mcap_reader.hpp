#pragma once
// An MCAP reader written in the test from the specification (mcap.dev/spec), sharing no
// code with io/record: it parses every record of a file and lists every rule of the spec the
// file breaks (framing, magic, CRCs, indexes, summary offsets, statistics). Tests assert the
// list is empty and compare what it read with what was recorded.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hil::testing::mcap_spec {

struct Schema {
  std::string name, encoding;
  std::vector<std::uint8_t> data;
};
struct Channel {
  std::uint16_t schema_id = 0;
  std::string topic, message_encoding;
  std::map<std::string, std::string> metadata;
};
struct Message {
  std::uint16_t channel_id = 0;
  std::uint32_t sequence = 0;
  std::uint64_t log_time = 0, publish_time = 0;
  std::vector<std::uint8_t> data;
};
struct Statistics {
  std::uint64_t message_count = 0;
  std::uint16_t schema_count = 0;
  std::uint32_t channel_count = 0, attachment_count = 0, metadata_count = 0, chunk_count = 0;
  std::uint64_t start_time = 0, end_time = 0;
  std::map<std::uint16_t, std::uint64_t> channel_message_counts;
};

struct File {
  std::string profile, library;
  std::map<std::uint16_t, Schema> schemas;
  std::map<std::uint16_t, Channel> channels;
  std::vector<Message> messages;  // in file order
  std::optional<Statistics> statistics;
  std::map<std::string, std::map<std::string, std::string>> metadata;
  std::size_t chunks = 0;
  std::size_t summary_offsets = 0;
  bool complete = false;                // footer and closing magic present
  std::vector<std::string> violations;  // empty when the file follows the spec
};

/// Parses `bytes`. With `prefix` true a file without summary and footer is accepted (it is
/// read up to its last complete record); otherwise a missing footer is a violation.
[[nodiscard]] File read(const std::vector<std::uint8_t>& bytes, bool prefix = false);

[[nodiscard]] std::vector<std::uint8_t> load(const std::string& path);

}  // namespace hil::testing::mcap_spec
