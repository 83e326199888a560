// Written from the MCAP specification only; see spec_mcap_reader.hpp.
#include "tests/io/record/spec_mcap_reader.hpp"

#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

namespace hil::testing::mcap_spec {

namespace {

const std::uint8_t kMagic[8] = {0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A};

std::uint32_t crc_of(const std::uint8_t* p, std::size_t n) {
  return static_cast<std::uint32_t>(crc32_z(crc32_z(0, nullptr, 0), p, n));
}

/// A cursor over [begin, end) that throws on overrun (a violation).
struct Cursor {
  const std::uint8_t* p;
  const std::uint8_t* end;
  std::uint64_t le(int bytes) {
    if (end - p < bytes) throw std::runtime_error("field past the end of its record");
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    p += bytes;
    return v;
  }
  std::vector<std::uint8_t> raw(std::uint64_t n) {
    if (static_cast<std::uint64_t>(end - p) < n) throw std::runtime_error("bytes past the end");
    std::vector<std::uint8_t> out(p, p + n);
    p += n;
    return out;
  }
  std::string str() {
    const auto v = raw(le(4));
    return {v.begin(), v.end()};
  }
  Cursor sub(std::uint64_t n) {
    if (static_cast<std::uint64_t>(end - p) < n) throw std::runtime_error("group past the end");
    Cursor c{p, p + n};
    p += n;
    return c;
  }
  bool done() const { return p == end; }
};

struct Rec {
  std::uint8_t op;
  std::uint64_t at;    // offset of the opcode
  std::uint64_t size;  // 9 + body
  Cursor body;
};

struct ChunkInfo {
  std::uint64_t at, size, start, end, records;
  std::string compression;
  std::uint64_t compressed;
  std::map<std::uint16_t, std::uint64_t> index_at;  // from the message index records
  std::uint64_t index_bytes = 0;
};

class Parser {
 public:
  Parser(const std::vector<std::uint8_t>& b, bool prefix) : b_(b), prefix_(prefix) {}
  File run();

 private:
  void bad(const std::string& what) { f_.violations.push_back(what); }
  void record(Rec& r, bool in_chunk);
  void chunk(Rec& r);
  void message_index(Rec& r);
  void summary_record(Rec& r);
  void check_footer(Rec& r);

  const std::vector<std::uint8_t>& b_;
  bool prefix_;
  File f_;
  std::vector<ChunkInfo> chunks_;
  std::map<std::uint16_t, std::uint64_t> counted_;  // messages per channel
  std::uint64_t min_time_ = UINT64_MAX, max_time_ = 0;
  // chunk-relative offsets of the messages of the last chunk, per channel
  std::map<std::uint16_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> last_chunk_msgs_;
  std::vector<std::tuple<std::uint8_t, std::uint64_t, std::uint64_t>> summary_;  // op, at, size
  std::vector<std::tuple<std::uint8_t, std::uint64_t, std::uint64_t>> offsets_;  // op, start, len
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::map<std::uint16_t, std::uint64_t>,
                         std::uint64_t>>
      chunk_indexes_;  // chunk at, length, message index offsets, index length
  std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t>>
      chunk_index_sizes_;  // compression, compressed and uncompressed size
  std::uint64_t data_end_at_ = 0, summary_offset_at_ = 0;
};

void Parser::record(Rec& r, bool in_chunk) {
  Cursor& c = r.body;
  switch (r.op) {
    case 0x03: {
      const auto id = static_cast<std::uint16_t>(c.le(2));
      Schema s{c.str(), c.str(), c.raw(c.le(4))};
      if (id == 0) bad("schema id 0");
      f_.schemas[id] = s;
      break;
    }
    case 0x04: {
      const auto id = static_cast<std::uint16_t>(c.le(2));
      Channel ch;
      ch.schema_id = static_cast<std::uint16_t>(c.le(2));
      ch.topic = c.str();
      ch.message_encoding = c.str();
      Cursor m = c.sub(c.le(4));
      while (!m.done()) {
        std::string k = m.str();
        ch.metadata[k] = m.str();
      }
      if (ch.schema_id != 0 && !f_.schemas.contains(ch.schema_id)) bad("channel before schema");
      f_.channels[id] = ch;
      break;
    }
    case 0x05: {
      Message m;
      m.channel_id = static_cast<std::uint16_t>(c.le(2));
      m.sequence = static_cast<std::uint32_t>(c.le(4));
      m.log_time = c.le(8);
      m.publish_time = c.le(8);
      m.data.assign(c.p, c.end);
      if (!f_.channels.contains(m.channel_id)) bad("message before its channel");
      if (in_chunk) {
        last_chunk_msgs_[m.channel_id].emplace_back(m.log_time, r.at);  // chunk-relative
      }
      ++counted_[m.channel_id];
      min_time_ = std::min(min_time_, m.log_time);
      max_time_ = std::max(max_time_, m.log_time);
      f_.messages.push_back(std::move(m));
      break;
    }
    default:
      if (in_chunk) bad("record " + std::to_string(r.op) + " inside a chunk");
  }
}

void Parser::chunk(Rec& r) {
  Cursor& c = r.body;
  ChunkInfo info{r.at, r.size, c.le(8), c.le(8), 0, {}, 0};
  const std::uint64_t uncompressed = c.le(8);
  const auto crc = static_cast<std::uint32_t>(c.le(4));
  const std::string compression = c.str();
  const std::uint64_t stored = c.le(8);
  Cursor records = c.sub(stored);
  info.compression = compression;
  info.compressed = stored;
  // the spec's compressions, with their libraries' one-shot calls
  std::vector<std::uint8_t> plain;
  if (compression == "zstd") {
    plain.resize(uncompressed);
    const std::size_t got = ZSTD_decompress(plain.data(), plain.size(), records.p, stored);
    if (ZSTD_isError(got) != 0U || got != uncompressed) bad("zstd chunk does not decompress");
    records = Cursor{plain.data(), plain.data() + plain.size()};
  } else if (compression == "lz4") {
    plain.resize(uncompressed);
    LZ4F_dctx* d = nullptr;
    (void)LZ4F_createDecompressionContext(&d, LZ4F_VERSION);
    std::size_t dst = plain.size(), src = stored;
    const std::size_t left = LZ4F_decompress(d, plain.data(), &dst, records.p, &src, nullptr);
    LZ4F_freeDecompressionContext(d);
    if (LZ4F_isError(left) != 0U || left != 0 || dst != uncompressed) {
      bad("lz4 chunk does not decompress");
    }
    records = Cursor{plain.data(), plain.data() + plain.size()};
  } else if (!compression.empty()) {
    bad("chunk compression '" + compression + "' is not in the spec");
  }
  const std::uint64_t n = static_cast<std::uint64_t>(records.end - records.p);
  info.records = n;
  if (n != uncompressed) bad("chunk uncompressed_size differs from its records");
  if (crc == 0 || crc_of(records.p, n) != crc) bad("chunk CRC missing or wrong");
  last_chunk_msgs_.clear();
  const std::uint8_t* base = records.p;
  std::uint64_t lo = UINT64_MAX;
  std::uint64_t hi = 0;
  while (!records.done()) {
    const auto relative = static_cast<std::uint64_t>(records.p - base);
    const auto op = static_cast<std::uint8_t>(records.le(1));
    const std::uint64_t len = records.le(8);
    Rec inner{op, relative, 9 + len, records.sub(len)};
    record(inner, true);
    if (op == 0x05) {
      lo = std::min(lo, f_.messages.back().log_time);
      hi = std::max(hi, f_.messages.back().log_time);
    }
  }
  if (lo != info.start || hi != info.end) bad("chunk message_start/end_time wrong");
  chunks_.push_back(info);
  ++f_.chunks;
}

void Parser::message_index(Rec& r) {
  Cursor& c = r.body;
  const auto id = static_cast<std::uint16_t>(c.le(2));
  Cursor entries = c.sub(c.le(4));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> got;
  while (!entries.done()) {
    const std::uint64_t t = entries.le(8);
    got.emplace_back(t, entries.le(8));
  }
  if (chunks_.empty()) return bad("message index before any chunk");
  chunks_.back().index_at[id] = r.at;
  chunks_.back().index_bytes += r.size;
  if (got != last_chunk_msgs_[id]) bad("message index of channel " + std::to_string(id) + " wrong");
  last_chunk_msgs_.erase(id);
}

void Parser::summary_record(Rec& r) {
  Cursor& c = r.body;
  summary_.emplace_back(r.op, r.at, r.size);
  if (r.op == 0x0B) {
    Statistics s;
    s.message_count = c.le(8);
    s.schema_count = static_cast<std::uint16_t>(c.le(2));
    s.channel_count = static_cast<std::uint32_t>(c.le(4));
    s.attachment_count = static_cast<std::uint32_t>(c.le(4));
    s.metadata_count = static_cast<std::uint32_t>(c.le(4));
    s.chunk_count = static_cast<std::uint32_t>(c.le(4));
    s.start_time = c.le(8);
    s.end_time = c.le(8);
    Cursor m = c.sub(c.le(4));
    while (!m.done()) {
      const auto id = static_cast<std::uint16_t>(m.le(2));
      s.channel_message_counts[id] = m.le(8);
    }
    f_.statistics = s;
  } else if (r.op == 0x08) {
    c.le(8);
    c.le(8);
    const std::uint64_t at = c.le(8);
    const std::uint64_t length = c.le(8);
    Cursor m = c.sub(c.le(4));
    std::map<std::uint16_t, std::uint64_t> offsets;
    while (!m.done()) {
      const auto id = static_cast<std::uint16_t>(m.le(2));
      offsets[id] = m.le(8);
    }
    const std::uint64_t index_length = c.le(8);
    chunk_indexes_.emplace_back(at, length, offsets, index_length);
    std::string compression = c.str();
    const std::uint64_t compressed = c.le(8);
    chunk_index_sizes_.emplace_back(std::move(compression), compressed, c.le(8));
  } else if (r.op == 0x03 || r.op == 0x04) {
    record(r, false);
  } else if (r.op != 0x0D && r.op != 0x0A) {
    bad("record " + std::to_string(r.op) + " in the summary");
  }
}

void Parser::check_footer(Rec& r) {
  Cursor& c = r.body;
  const std::uint64_t summary_start = c.le(8);
  const std::uint64_t summary_offset_start = c.le(8);
  const auto crc = static_cast<std::uint32_t>(c.le(4));
  const std::uint64_t first_summary = summary_.empty() ? 0 : std::get<1>(summary_.front());
  if (summary_start != first_summary) bad("footer summary_start wrong");
  if (summary_offset_start != summary_offset_at_) bad("footer summary_offset_start wrong");
  if (crc == 0 || crc != crc_of(b_.data() + summary_start, r.at + 9 + 16 - summary_start)) {
    bad("summary CRC missing or wrong");
  }
  if (b_.size() != r.at + r.size + 8 || std::memcmp(b_.data() + r.at + r.size, kMagic, 8) != 0) {
    bad("no closing magic right after the footer");
  }
  f_.complete = true;
}

File Parser::run() {
  if (b_.size() < 8 || std::memcmp(b_.data(), kMagic, 8) != 0) {
    bad("no opening magic");
    return f_;
  }
  enum { data, summary, offsets } section = data;
  std::uint64_t at = 8;
  try {
    while (at < b_.size()) {
      if (b_.size() - at < 9) break;
      const std::uint8_t op = b_[at];
      std::uint64_t len = 0;
      for (int i = 7; i >= 0; --i) len = (len << 8) | b_[at + 1 + i];
      if (len > b_.size() - at - 9) break;  // torn record
      Rec r{op, at, 9 + len, Cursor{b_.data() + at + 9, b_.data() + at + 9 + len}};
      if (at == 8 && op != 0x01) bad("first record is not a header");
      if (op == 0x01) {
        f_.profile = r.body.str();
        f_.library = r.body.str();
      } else if (op == 0x02) {
        check_footer(r);
        break;
      } else if (op == 0x0F) {
        const auto crc = static_cast<std::uint32_t>(r.body.le(4));
        if (crc == 0 || crc != crc_of(b_.data(), at)) bad("data section CRC missing or wrong");
        data_end_at_ = at;
        section = summary;
      } else if (op == 0x0E) {
        if (section != offsets) summary_offset_at_ = at;
        section = offsets;
        const auto group = static_cast<std::uint8_t>(r.body.le(1));
        const std::uint64_t start = r.body.le(8);
        offsets_.emplace_back(group, start, r.body.le(8));
      } else if (section == summary) {
        summary_record(r);
      } else if (section == offsets) {
        bad("record " + std::to_string(op) + " among the summary offsets");
      } else if (op == 0x06) {
        chunk(r);
      } else if (op == 0x07) {
        message_index(r);
      } else if (op == 0x0C) {
        std::string name = r.body.str();
        Cursor m = r.body.sub(r.body.le(4));
        auto& map = f_.metadata[name];
        while (!m.done()) {
          std::string k = m.str();
          map[k] = m.str();
        }
      } else if (op >= 0x03 && op <= 0x05) {
        record(r, false);
      } else if (op < 0x01 || op > 0x0F) {
        bad("unknown opcode " + std::to_string(op));
      }
      at += r.size;
    }
  } catch (const std::exception& e) {
    bad(std::string("malformed record: ") + e.what());
  }
  if (!f_.complete && !prefix_) bad("no footer");
  if (!f_.complete) return f_;

  // Summary offsets: each group exactly the run of same-opcode summary records.
  std::set<std::uint8_t> seen;
  for (std::size_t i = 0; i < summary_.size(); ++i) {
    const auto [op, start, size] = summary_[i];
    if (i > 0 && std::get<0>(summary_[i - 1]) == op) continue;
    if (!seen.insert(op).second) bad("summary records of one opcode are not grouped");
    std::uint64_t length = 0;
    for (std::size_t j = i; j < summary_.size() && std::get<0>(summary_[j]) == op; ++j) {
      length += std::get<2>(summary_[j]);
    }
    bool found = false;
    for (const auto& [g, s, l] : offsets_) found |= g == op && s == start && l == length;
    if (!found) bad("no correct summary offset for group " + std::to_string(op));
  }
  if (offsets_.size() != seen.size()) bad("summary offsets that match no group");
  f_.summary_offsets = offsets_.size();

  // Chunk indexes against the chunks and their message indexes.
  if (chunk_indexes_.size() != chunks_.size()) bad("chunk index count != chunk count");
  for (std::size_t i = 0; i < std::min(chunks_.size(), chunk_indexes_.size()); ++i) {
    const auto& [at_, length, index_offsets, index_length] = chunk_indexes_[i];
    if (at_ != chunks_[i].at || length != chunks_[i].size) bad("chunk index points elsewhere");
    if (index_offsets != chunks_[i].index_at) bad("chunk index message_index_offsets wrong");
    if (index_length != chunks_[i].index_bytes) bad("chunk index message_index_length wrong");
    const auto& [compression, compressed, uncompressed] = chunk_index_sizes_[i];
    if (compression != chunks_[i].compression || compressed != chunks_[i].compressed ||
        uncompressed != chunks_[i].records) {
      bad("chunk index compression or sizes differ from the chunk's");
    }
  }
  if (!f_.statistics) {
    bad("no statistics");
  } else {
    const Statistics& s = *f_.statistics;
    if (s.message_count != f_.messages.size()) bad("statistics message_count wrong");
    if (s.channel_message_counts != counted_) bad("statistics channel_message_counts wrong");
    if (s.chunk_count != chunks_.size()) bad("statistics chunk_count wrong");
    if (s.schema_count != f_.schemas.size()) bad("statistics schema_count wrong");
    if (s.channel_count != f_.channels.size()) bad("statistics channel_count wrong");
    if (s.metadata_count != f_.metadata.size()) bad("statistics metadata_count wrong");
    if (!f_.messages.empty() && (s.start_time != min_time_ || s.end_time != max_time_)) {
      bad("statistics start/end time wrong");
    }
  }
  return f_;
}

}  // namespace

File read(const std::vector<std::uint8_t>& bytes, bool prefix) {
  return Parser(bytes, prefix).run();
}

std::vector<std::uint8_t> load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace hil::testing::mcap_spec
