#include "io/record/mcap/mcap_reader.hpp"

#include <algorithm>
#include <bitset>
#include <memory>

#include "io/record/mcap/chunk_compression.hpp"
#include "io/record/mcap/crc32.hpp"

namespace hil::io::record {

namespace {

constexpr std::size_t kIds = 65536;

class Reader {
 public:
  Reader(std::span<const std::uint8_t> file, McapVisitor& visitor)
      : file_(file), visitor_(visitor) {}

  McapReadReport run();

 private:
  /// The record at `pos`, or nullopt (and a truncated report) when it is incomplete.
  struct Record {
    Opcode op;
    std::span<const std::uint8_t> body;
    std::uint64_t offset;
  };
  [[nodiscard]] std::optional<Record> record_at(std::span<const std::uint8_t> bytes,
                                                std::size_t pos, std::uint64_t base,
                                                const char* where);
  /// Handles one top-level record; true when the footer was reached.
  bool top_level(const Record& r);
  void contained(const Record& r);  // a record of the data section or of a chunk
  void schema(const Record& r);
  void channel(const Record& r);
  void message(const Record& r);
  void chunk(const Record& r);
  void data_end(const Record& r);
  void statistics(const Record& r);
  void footer(const Record& r);

  std::span<const std::uint8_t> file_;
  McapVisitor& visitor_;
  McapReadReport report_;
  bool in_summary_ = false;
  // CRC of the data section so far (magic and the records before data end), updated record by
  // record while each is in the cache rather than in one pass over the file at its end
  std::uint32_t data_crc_ = 0;
  std::vector<std::uint8_t> decompressed_;  // the chunk being read, when compressed
  std::unique_ptr<std::bitset<kIds>> schemas_ = std::make_unique<std::bitset<kIds>>();
  std::unique_ptr<std::bitset<kIds>> channels_ = std::make_unique<std::bitset<kIds>>();
};

std::optional<Reader::Record> Reader::record_at(std::span<const std::uint8_t> bytes,
                                                std::size_t pos, std::uint64_t base,
                                                const char* where) {
  const std::size_t left = bytes.size() - pos;
  if (left < kRecordPrefixBytes) {
    report_.end = McapEnd::truncated;
    report_.problem = "offset " + std::to_string(base + pos) + ": " + where + " ends inside a " +
                      "record's opcode and length (" + std::to_string(left) + " of 9 bytes)";
    return std::nullopt;
  }
  const auto op = static_cast<Opcode>(bytes[pos]);
  std::uint64_t length = 0;
  std::memcpy(&length, bytes.data() + pos + 1, sizeof length);
  if (length > left - kRecordPrefixBytes) {
    report_.end = McapEnd::truncated;
    report_.problem = "offset " + std::to_string(base + pos) + ": " + where + " ends inside a " +
                      std::string(to_string(op)) + " record of " + std::to_string(length) +
                      " bytes (" + std::to_string(left - kRecordPrefixBytes) + " present)";
    return std::nullopt;
  }
  return Record{op, bytes.subspan(pos + kRecordPrefixBytes, static_cast<std::size_t>(length)),
                base + pos};
}

void Reader::schema(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "schema");
  McapSchema s;
  s.id = in.get<std::uint16_t>("id");
  s.name = in.string("name");
  s.encoding = in.string("encoding");
  s.data = in.take(in.get<std::uint32_t>("data"), "data");
  if (s.id == 0 || schemas_->test(s.id)) return;  // id 0 is invalid; duplicates are copies
  schemas_->set(s.id);
  visitor_.on_schema(s);
}

void Reader::channel(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "channel");
  McapChannel c;
  c.id = in.get<std::uint16_t>("id");
  c.schema_id = in.get<std::uint16_t>("schema_id");
  c.topic = in.string("topic");
  c.message_encoding = in.string("message_encoding");
  c.metadata = in.string_map("metadata");
  if (channels_->test(c.id)) return;
  if (c.schema_id != 0 && !schemas_->test(c.schema_id)) {
    throw McapFormatError(r.offset, "channel " + std::to_string(c.id) + " ('" + c.topic +
                                        "') uses schema " + std::to_string(c.schema_id) +
                                        ", which no earlier record defines");
  }
  channels_->set(c.id);
  visitor_.on_channel(c);
}

void Reader::message(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "message");
  McapMessage m;
  m.channel_id = in.get<std::uint16_t>("channel_id");
  m.sequence = in.get<std::uint32_t>("sequence");
  m.log_time = in.get<std::uint64_t>("log_time");
  m.publish_time = in.get<std::uint64_t>("publish_time");
  m.data = in.rest();
  if (!channels_->test(m.channel_id)) {
    throw McapFormatError(r.offset, "message on channel " + std::to_string(m.channel_id) +
                                        ", which no earlier record defines");
  }
  ++report_.messages;
  visitor_.on_message(m);
}

void Reader::contained(const Record& r) {
  switch (r.op) {
    case Opcode::schema:
      schema(r);
      break;
    case Opcode::channel:
      channel(r);
      break;
    case Opcode::message:
      message(r);
      break;
    default:
      break;  // indexes, attachments, extensions: nothing to hand on
  }
}

void Reader::chunk(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "chunk");
  (void)in.get<std::uint64_t>("message_start_time");
  (void)in.get<std::uint64_t>("message_end_time");
  const auto uncompressed_size = in.get<std::uint64_t>("uncompressed_size");
  const auto crc = in.get<std::uint32_t>("uncompressed_crc");
  const std::string compression(in.string("compression"));
  const std::uint64_t records_at = in.offset() + 8;
  std::span<const std::uint8_t> records = in.prefixed_u64("records");
  if (!compression.empty()) {
    try {
      decompress(compression, records, uncompressed_size, decompressed_);
    } catch (const std::runtime_error& e) {
      throw McapFormatError(r.offset, std::string("chunk: ") + e.what());
    }
    records = decompressed_;
  }
  if (records.size() != uncompressed_size) {
    throw McapFormatError(r.offset, "chunk: uncompressed_size " +
                                        std::to_string(uncompressed_size) + " but " +
                                        std::to_string(records.size()) + " bytes of records");
  }
  if (crc != 0 && crc32_update(0, records) != crc) {
    throw McapFormatError(r.offset, "chunk: CRC mismatch (the chunk's bytes are damaged)");
  }
  for (std::size_t pos = 0; pos < records.size();) {
    const auto inner = record_at(records, pos, records_at, "chunk");
    if (!inner) throw McapFormatError(r.offset, "chunk: a record runs past the chunk's end");
    contained(*inner);
    pos += kRecordPrefixBytes + inner->body.size();
  }
  ++report_.chunks;
}

void Reader::data_end(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "data end");
  const auto crc = in.get<std::uint32_t>("data_section_crc");
  if (crc != 0) {
    if (data_crc_ != crc) {
      throw McapFormatError(r.offset, "data end: the data section's CRC does not match");
    }
    report_.data_crc_checked = true;
  }
  in_summary_ = true;
}

void Reader::statistics(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "statistics");
  McapStatistics s;
  s.message_count = in.get<std::uint64_t>("message_count");
  s.schema_count = in.get<std::uint16_t>("schema_count");
  s.channel_count = in.get<std::uint32_t>("channel_count");
  s.attachment_count = in.get<std::uint32_t>("attachment_count");
  s.metadata_count = in.get<std::uint32_t>("metadata_count");
  s.chunk_count = in.get<std::uint32_t>("chunk_count");
  s.message_start_time = in.get<std::uint64_t>("message_start_time");
  s.message_end_time = in.get<std::uint64_t>("message_end_time");
  ByteReader counts = in.prefixed_u32("channel_message_counts");
  while (!counts.empty()) {
    const auto id = counts.get<std::uint16_t>("channel_message_counts");
    s.channel_message_counts.emplace_back(id, counts.get<std::uint64_t>("channel_message_counts"));
  }
  report_.statistics = std::move(s);
}

void Reader::footer(const Record& r) {
  ByteReader in(r.body, r.offset + kRecordPrefixBytes, "footer");
  const auto summary_start = in.get<std::uint64_t>("summary_start");
  (void)in.get<std::uint64_t>("summary_offset_start");
  const auto crc = in.get<std::uint32_t>("summary_crc");
  const std::uint64_t end = r.offset + kRecordPrefixBytes + r.body.size();
  const std::uint64_t crc_end = r.offset + kRecordPrefixBytes + 16;
  if (crc != 0 && summary_start != 0) {
    if (summary_start > r.offset ||
        crc32_update(0, file_.subspan(static_cast<std::size_t>(summary_start),
                                      static_cast<std::size_t>(crc_end - summary_start))) != crc) {
      throw McapFormatError(r.offset, "footer: the summary's CRC does not match");
    }
    report_.summary_crc_checked = true;
  }
  if (file_.size() - end < kMcapMagic.size()) {
    report_.end = McapEnd::truncated;
    report_.problem = "offset " + std::to_string(end) + ": the file ends before the closing magic";
    return;
  }
  if (!std::equal(kMcapMagic.begin(), kMcapMagic.end(), file_.begin() + static_cast<long>(end)) ||
      file_.size() - end != kMcapMagic.size()) {
    throw McapFormatError(end, "the footer is not followed by the closing magic and the end");
  }
  report_.end = McapEnd::complete;
  report_.valid_bytes = file_.size();
}

bool Reader::top_level(const Record& r) {
  switch (r.op) {
    case Opcode::header: {
      if (r.offset != kMcapMagic.size()) throw McapFormatError(r.offset, "a second header");
      ByteReader in(r.body, r.offset + kRecordPrefixBytes, "header");
      report_.profile = in.string("profile");
      report_.library = in.string("library");
      break;
    }
    case Opcode::footer:
      footer(r);
      return true;
    case Opcode::chunk:
      chunk(r);
      break;
    case Opcode::data_end:
      data_end(r);
      break;
    case Opcode::statistics:
      statistics(r);
      break;
    case Opcode::metadata: {
      ByteReader in(r.body, r.offset + kRecordPrefixBytes, "metadata");
      const std::string name(in.string("name"));
      visitor_.on_metadata(name, in.string_map("metadata"));
      break;
    }
    case Opcode::message:
      if (in_summary_) throw McapFormatError(r.offset, "a message record in the summary");
      message(r);
      break;
    default:
      contained(r);
  }
  return false;
}

McapReadReport Reader::run() {
  if (file_.size() < kMcapMagic.size() ||
      !std::equal(kMcapMagic.begin(), kMcapMagic.end(), file_.begin())) {
    report_.problem = R"(not an MCAP file: it does not start with the MCAP magic \x89MCAP0\r\n)";
    return report_;
  }
  std::size_t pos = kMcapMagic.size();
  report_.valid_bytes = pos;
  data_crc_ = crc32_update(0, file_.first(pos));
  try {
    for (;;) {
      if (pos == file_.size()) {
        report_.end = McapEnd::truncated;
        report_.problem = "offset " + std::to_string(pos) +
                          ": the file ends after a complete record, before the footer";
        break;
      }
      const auto r = record_at(file_, pos, 0, "the file");
      if (!r) break;
      if (pos == kMcapMagic.size() && r->op != Opcode::header) {
        throw McapFormatError(
            pos, "the first record is a " + std::string(to_string(r->op)) + ", not a header");
      }
      if (top_level(*r)) break;
      const std::size_t size = kRecordPrefixBytes + r->body.size();
      if (!in_summary_) data_crc_ = crc32_update(data_crc_, file_.subspan(pos, size));
      pos += size;
      report_.valid_bytes = pos;
      visitor_.on_progress(pos, file_.size());
    }
  } catch (const McapFormatError& e) {
    report_.end = McapEnd::corrupt;
    report_.problem = e.what();
  }
  return report_;
}

}  // namespace

std::string_view to_string(McapEnd end) noexcept {
  switch (end) {
    case McapEnd::complete:
      return "complete";
    case McapEnd::truncated:
      return "truncated";
    case McapEnd::corrupt:
      return "corrupt";
  }
  return "unknown";
}

McapReadReport read_mcap(std::span<const std::uint8_t> file, McapVisitor& visitor) {
  return Reader(file, visitor).run();
}

}  // namespace hil::io::record
