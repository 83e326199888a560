#include "io/record/mcap/mcap_writer.hpp"

#include <algorithm>
#include <stdexcept>

#include "io/record/mcap/crc32.hpp"

namespace hil::io::record {

namespace {

void append_magic(std::vector<std::uint8_t>& out) {
  out.insert(out.end(), kMcapMagic.begin(), kMcapMagic.end());
}

}  // namespace

McapWriter::McapWriter(std::unique_ptr<ByteSink> sink, McapWriterSpec options)
    : sink_(std::move(sink)),
      options_(std::move(options)),
      compressor_(options_.compression, options_.level) {
  if (!sink_) throw std::invalid_argument("McapWriter needs a sink");
  options_.chunk_bytes = std::max<std::size_t>(options_.chunk_bytes, 1);
  chunk_.reserve(options_.chunk_bytes + 4096);
  append_magic(out_);
  ByteWriter w(out_);
  const std::size_t header = w.begin_record(Opcode::header);
  w.string(options_.profile);
  w.string(options_.library);
  w.end_record(header);
  emit(true);
}

McapWriter::~McapWriter() = default;

void McapWriter::require_open() const {
  if (closed_) throw std::logic_error("MCAP writer used after close()");
}

void McapWriter::append_schema(ByteWriter& w, const Schema& s) {
  const std::size_t start = w.begin_record(Opcode::schema);
  w.put(s.id);
  w.string(s.name);
  w.string(s.encoding);
  w.put(static_cast<std::uint32_t>(s.data.size()));
  w.bytes(s.data);
  w.end_record(start);
}

void McapWriter::append_channel(ByteWriter& w, const Channel& c) {
  const std::size_t start = w.begin_record(Opcode::channel);
  w.put(c.id);
  w.put(c.schema_id);
  w.string(c.topic);
  w.string(c.encoding);
  w.string_map(c.metadata);
  w.end_record(start);
}

std::uint16_t McapWriter::add_schema(std::string_view name, std::string_view encoding,
                                     std::span<const std::uint8_t> data) {
  require_open();
  if (schemas_.size() >= 0xFFFF) throw std::length_error("MCAP allows 65535 schemas");
  const auto id = static_cast<std::uint16_t>(schemas_.size() + 1);  // 0 means "no schema"
  schemas_.push_back({id, std::string(name), std::string(encoding), {data.begin(), data.end()}});
  ByteWriter w(out_);
  append_schema(w, schemas_.back());
  emit(true);
  return id;
}

std::uint16_t McapWriter::add_channel(std::uint16_t schema_id, std::string_view topic,
                                      std::string_view message_encoding,
                                      const StringMap& metadata) {
  require_open();
  if (schema_id > schemas_.size()) throw std::out_of_range("add_channel: unknown schema id");
  if (channels_.size() > 0xFFFF) throw std::length_error("MCAP allows 65536 channels");
  const auto id = static_cast<std::uint16_t>(channels_.size());
  channels_.push_back({id, schema_id, std::string(topic), std::string(message_encoding), metadata});
  per_channel_.emplace_back();
  ByteWriter w(out_);
  append_channel(w, channels_.back());
  emit(true);
  return id;
}

void McapWriter::add_metadata(std::string_view name, const StringMap& metadata) {
  require_open();
  close_chunk();  // a Metadata record may not be inside a chunk
  ByteWriter w(out_);
  const std::size_t start = w.begin_record(Opcode::metadata);
  w.string(name);
  w.string_map(metadata);
  const std::size_t length = w.end_record(start);
  metadata_indexes_.push_back({offset_, length, std::string(name)});
  emit(true);
}

void McapWriter::write_message(std::uint16_t channel_id, std::uint32_t sequence,
                               std::uint64_t log_time, std::uint64_t publish_time,
                               std::span<const std::uint8_t> data) {
  require_open();
  if (channel_id >= channels_.size()) throw std::out_of_range("write_message: unknown channel");
  ChannelCounts& counts = per_channel_[channel_id];
  if (counts.chunk_index.empty()) chunk_channels_.push_back(channel_id);
  counts.chunk_index.emplace_back(log_time, chunk_.size());
  ++counts.total;

  const bool first_in_chunk = chunk_.empty();
  ByteWriter w(chunk_);
  const std::size_t start = w.begin_record(Opcode::message);
  w.put(channel_id);
  w.put(sequence);
  w.put(log_time);
  w.put(publish_time);
  w.bytes(data);
  w.end_record(start);

  chunk_start_time_ = first_in_chunk ? log_time : std::min(chunk_start_time_, log_time);
  chunk_end_time_ = first_in_chunk ? log_time : std::max(chunk_end_time_, log_time);
  start_time_ = message_count_ == 0 ? log_time : std::min(start_time_, log_time);
  end_time_ = message_count_ == 0 ? log_time : std::max(end_time_, log_time);
  ++message_count_;
  if (chunk_.size() >= options_.chunk_bytes) close_chunk();
}

void McapWriter::close_chunk() {
  if (chunk_.empty()) return;
  const std::span<const std::uint8_t> records = compressor_.compress(chunk_);
  ByteWriter w(out_);
  const std::uint64_t chunk_offset = offset_ + out_.size();
  const std::size_t start = w.begin_record(Opcode::chunk);
  w.put(chunk_start_time_);
  w.put(chunk_end_time_);
  w.put(static_cast<std::uint64_t>(chunk_.size()));  // uncompressed_size
  w.put(crc32_update(0, chunk_));                    // uncompressed_crc
  w.string(mcap_name(options_.compression));
  w.put(static_cast<std::uint64_t>(records.size()));
  w.bytes(records);
  const std::size_t chunk_length = w.end_record(start);

  // The chunk's Message Index records, and its Chunk Index record for the summary
  std::sort(chunk_channels_.begin(), chunk_channels_.end());
  std::uint64_t at = offset_ + out_.size();
  std::uint64_t index_length = 0;
  index_record_.clear();
  ByteWriter ix(index_record_);
  const std::size_t index_start = ix.begin_record(Opcode::chunk_index);
  ix.put(chunk_start_time_);
  ix.put(chunk_end_time_);
  ix.put(chunk_offset);
  ix.put(static_cast<std::uint64_t>(chunk_length));
  ix.put(static_cast<std::uint32_t>(chunk_channels_.size() * 10));
  for (const std::uint16_t id : chunk_channels_) {
    auto& entries = per_channel_[id].chunk_index;
    ix.put(id);
    ix.put(at);
    const std::size_t record = w.begin_record(Opcode::message_index);
    w.put(id);
    w.put(static_cast<std::uint32_t>(entries.size() * 16));
    for (const auto& [time, offset] : entries) {
      w.put(time);
      w.put(offset);
    }
    const std::size_t length = w.end_record(record);
    index_length += length;
    at += length;
    entries.clear();
  }
  ix.put(index_length);
  ix.string(mcap_name(options_.compression));
  ix.put(static_cast<std::uint64_t>(records.size()));
  ix.put(static_cast<std::uint64_t>(chunk_.size()));
  ix.end_record(index_start);
  chunk_indexes_.append(index_record_);
  ++chunk_count_;
  chunk_channels_.clear();
  chunk_.clear();
  emit(true);
}

std::uint64_t McapWriter::summary_bytes() const noexcept {
  std::uint64_t bytes = 4096;  // statistics, metadata index, summary offsets, footer
  for (const Schema& sc : schemas_) bytes += 32 + sc.name.size() + sc.data.size();
  for (const Channel& c : channels_) bytes += 64 + c.topic.size();
  return bytes + chunk_indexes_.size();
}

void McapWriter::flush() {
  require_open();
  close_chunk();
  sink_->sync();
}

void McapWriter::write_summary() {
  // Each group's (opcode, start, length), for the Summary Offset records. Written as it goes:
  // the chunk indexes come from their spill, so the summary is never whole in memory.
  std::vector<std::tuple<Opcode, std::uint64_t, std::uint64_t>> groups;
  const std::uint64_t summary_start = offset_;
  ByteWriter w(out_);
  const auto group = [&](Opcode op, auto&& append_all) {
    const std::uint64_t start = offset_ + w.size();
    append_all();
    const std::uint64_t length = offset_ + w.size() - start;
    if (length > 0) groups.emplace_back(op, start, length);
  };
  group(Opcode::schema, [&] {
    for (const Schema& s : schemas_) append_schema(w, s);
  });
  group(Opcode::channel, [&] {
    for (const Channel& c : channels_) append_channel(w, c);
  });
  group(Opcode::statistics, [&] {
    const std::size_t start = w.begin_record(Opcode::statistics);
    w.put(message_count_);
    w.put(static_cast<std::uint16_t>(schemas_.size()));
    w.put(static_cast<std::uint32_t>(channels_.size()));
    w.put(std::uint32_t{0});  // attachments
    w.put(static_cast<std::uint32_t>(metadata_indexes_.size()));
    w.put(static_cast<std::uint32_t>(chunk_count_));
    w.put(start_time_);
    w.put(end_time_);
    const std::size_t counts = w.size();
    w.put(std::uint32_t{0});
    for (const Channel& c : channels_) {
      if (per_channel_[c.id].total == 0) continue;  // only channels that have messages
      w.put(c.id);
      w.put(per_channel_[c.id].total);
    }
    w.patch_u32_length(counts);
    w.end_record(start);
  });
  group(Opcode::metadata_index, [&] {
    for (const MetadataIndex& m : metadata_indexes_) {
      const std::size_t start = w.begin_record(Opcode::metadata_index);
      w.put(m.offset);
      w.put(m.length);
      w.string(m.name);
      w.end_record(start);
    }
  });
  emit_summary();
  const std::uint64_t chunk_indexes_at = offset_;
  chunk_indexes_.replay([this](std::span<const std::uint8_t> bytes) {
    out_.assign(bytes.begin(), bytes.end());
    emit_summary();
  });
  if (offset_ > chunk_indexes_at) {
    groups.emplace_back(Opcode::chunk_index, chunk_indexes_at, offset_ - chunk_indexes_at);
  }
  const std::uint64_t summary_offset_start = offset_;
  for (const auto& [op, start, length] : groups) {
    const std::size_t record = w.begin_record(Opcode::summary_offset);
    w.put(static_cast<std::uint8_t>(op));
    w.put(start);
    w.put(length);
    w.end_record(record);
  }
  // The footer's length is written now, not patched later: the summary CRC covers it.
  w.put(static_cast<std::uint8_t>(Opcode::footer));
  w.put(std::uint64_t{8 + 8 + 4});
  w.put(summary_start);
  w.put(summary_offset_start);
  // summary_crc: from the summary's start through summary_offset_start in the footer.
  w.put(crc32_update(summary_crc_, out_));
  emit(false);
}

void McapWriter::close() {
  if (closed_) return;
  close_chunk();
  ByteWriter w(out_);
  const std::size_t data_end = w.begin_record(Opcode::data_end);
  w.put(std::uint32_t{0});
  w.end_record(data_end);
  // data_section_crc: every byte from the leading magic up to the Data End record.
  const std::uint32_t crc = crc32_update(data_crc_, std::span(out_).first(data_end));
  std::memcpy(out_.data() + data_end + kRecordPrefixBytes, &crc, sizeof crc);
  emit(false);

  write_summary();
  append_magic(out_);
  emit(false);
  sink_->sync();
  closed_ = true;
}

void McapWriter::emit_summary() {
  summary_crc_ = crc32_update(summary_crc_, out_);
  emit(false);
}

void McapWriter::emit(bool data_section) {
  if (data_section) data_crc_ = crc32_update(data_crc_, out_);
  sink_->write(out_);
  offset_ += out_.size();
  out_.clear();
}

}  // namespace hil::io::record
