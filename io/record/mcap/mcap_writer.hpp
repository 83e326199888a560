#pragma once
// An MCAP writer (https://mcap.dev/spec): chunked (zstd, lz4 or uncompressed), indexed. Layout:
//   magic, Header, [Schema, Channel, Metadata records as they are added],
//   [Chunk + its Message Index records]..., Data End (data-section CRC),
//   summary (Schema, Channel, Statistics, Metadata Index, Chunk Index groups),
//   Summary Offset records, Footer (summary CRC), magic.
// Every write to the sink is whole records, so after flush() (which syncs) the file is a
// valid prefix: a reader that stops at the first incomplete record loses nothing flushed.
// Thread-safety: one thread at a time (the recorder thread); not for the RT thread.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/record/byte_io.hpp"
#include "io/record/byte_sink.hpp"
#include "io/record/mcap/chunk_compression.hpp"
#include "io/record/spill_buffer.hpp"

namespace hil::io::record {

struct McapWriterSpec {
  std::string profile;                   ///< Header profile; "" = none (no ROS profile applies)
  std::string library = "hilsim";        ///< Header library: the writer's name and version
  std::size_t chunk_bytes = 512 * 1024;  ///< a chunk closes once its records reach this size
  Compression compression = Compression::none;  ///< of each chunk's records
  /// zstd's level: 1 keeps the writer thread up with `--speed max` (docs/recording.md)
  int level = 1;
};

class McapWriter {
 public:
  /// Writes the magic and the Header record. Throws std::system_error from the sink.
  McapWriter(std::unique_ptr<ByteSink> sink, McapWriterSpec options);
  McapWriter(const McapWriter&) = delete;
  McapWriter& operator=(const McapWriter&) = delete;
  ~McapWriter();

  /// Adds a Schema record to the data section now; returns its id (1, 2, …).
  std::uint16_t add_schema(std::string_view name, std::string_view encoding,
                           std::span<const std::uint8_t> data);
  /// Adds a Channel record to the data section now; returns its id (0, 1, …).
  std::uint16_t add_channel(std::uint16_t schema_id, std::string_view topic,
                            std::string_view message_encoding, const StringMap& metadata);
  /// Adds a Metadata record (indexed in the summary).
  void add_metadata(std::string_view name, const StringMap& metadata);

  /// Appends a Message record to the open chunk; closes the chunk once it is full.
  void write_message(std::uint16_t channel_id, std::uint32_t sequence, std::uint64_t log_time,
                     std::uint64_t publish_time, std::span<const std::uint8_t> data);

  /// Writes the open chunk and syncs the sink: what was written survives a SIGKILL.
  void flush();
  /// Writes the open chunk, Data End, the summary, the footer and the trailing magic, then
  /// syncs. The writer takes no more records afterwards. Idempotent.
  void close();

  [[nodiscard]] bool closed() const noexcept { return closed_; }
  /// Bytes the summary will take at close() (it grows with the chunks: ~80 bytes per chunk
  /// plus 10 per channel in it).
  [[nodiscard]] std::uint64_t summary_bytes() const noexcept;
  /// Bytes of records in the open chunk (uncompressed): at most what closing it writes, plus
  /// its indexes.
  [[nodiscard]] std::uint64_t pending_bytes() const noexcept { return chunk_.size(); }
  /// Bytes handed to the sink so far.
  [[nodiscard]] std::uint64_t bytes_written() const noexcept { return offset_; }
  [[nodiscard]] std::uint64_t message_count() const noexcept { return message_count_; }

 private:
  struct Schema {
    std::uint16_t id;
    std::string name, encoding;
    std::vector<std::uint8_t> data;
  };
  struct Channel {
    std::uint16_t id, schema_id;
    std::string topic, encoding;
    StringMap metadata;
  };
  struct MetadataIndex {
    std::uint64_t offset, length;
    std::string name;
  };
  struct ChannelCounts {
    std::uint64_t total = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> chunk_index;  // (log_time, offset)
  };

  static void append_schema(ByteWriter& w, const Schema& s);
  static void append_channel(ByteWriter& w, const Channel& c);
  void close_chunk();
  /// The summary and the footer, written to the sink group by group.
  void write_summary();
  /// emit() of summary bytes: they go into the summary CRC.
  void emit_summary();
  /// Hands `out_` to the sink (CRC of the data section too, until Data End) and clears it.
  void emit(bool data_section);
  void require_open() const;

  std::unique_ptr<ByteSink> sink_;
  McapWriterSpec options_;
  std::vector<std::uint8_t> out_;    // whole records waiting for the sink
  std::vector<std::uint8_t> chunk_;  // records of the open chunk
  std::uint64_t chunk_start_time_ = 0, chunk_end_time_ = 0;
  std::vector<std::uint16_t> chunk_channels_;  // channels with messages in the open chunk
  std::vector<Schema> schemas_;
  std::vector<Channel> channels_;
  std::vector<ChannelCounts> per_channel_;
  // The Chunk Index records, the one part of the summary that grows with the file: spilled to
  // an unlinked temporary file, so resident memory stays flat however long the recording
  // (in memory only when no temporary file can be made).
  SpillBuffer chunk_indexes_;
  std::vector<std::uint8_t> index_record_;
  std::uint64_t chunk_count_ = 0;
  std::uint32_t summary_crc_ = 0;
  ChunkCompressor compressor_;
  std::vector<MetadataIndex> metadata_indexes_;
  std::uint64_t offset_ = 0;
  std::uint32_t data_crc_ = 0;
  std::uint64_t message_count_ = 0, start_time_ = 0, end_time_ = 0;
  bool closed_ = false;
};

}  // namespace hil::io::record
