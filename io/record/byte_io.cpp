#include "io/record/byte_io.hpp"

namespace hil::io::record {

void ByteWriter::string(std::string_view s) {
  put(static_cast<std::uint32_t>(s.size()));
  out_.insert(out_.end(), s.begin(), s.end());
}

void ByteWriter::string_map(const StringMap& map) {
  const std::size_t length_at = out_.size();
  put(std::uint32_t{0});
  for (const auto& [key, value] : map) {
    string(key);
    string(value);
  }
  patch_u32_length(length_at);
}

std::size_t ByteWriter::begin_record(Opcode op) {
  const std::size_t start = out_.size();
  put(static_cast<std::uint8_t>(op));
  put(std::uint64_t{0});
  return start;
}

std::size_t ByteWriter::end_record(std::size_t start) noexcept {
  const std::uint64_t length = out_.size() - start - kRecordPrefixBytes;
  std::memcpy(out_.data() + start + 1, &length, sizeof length);
  return out_.size() - start;
}

void ByteWriter::patch_u32_length(std::size_t at) noexcept {
  const auto length = static_cast<std::uint32_t>(out_.size() - at - sizeof(std::uint32_t));
  std::memcpy(out_.data() + at, &length, sizeof length);
}

std::span<const std::uint8_t> ByteReader::take(std::size_t n, std::string_view field) {
  if (n > data_.size() - pos_) {
    throw McapFormatError(offset(), std::string(what_) + ": field '" + std::string(field) +
                                        "' needs " + std::to_string(n) + " bytes, " +
                                        std::to_string(data_.size() - pos_) + " left");
  }
  const auto out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::string_view ByteReader::string(std::string_view field) {
  const auto length = get<std::uint32_t>(field);
  const auto bytes = take(length, field);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

StringMap ByteReader::string_map(std::string_view field) {
  ByteReader entries = prefixed_u32(field);
  StringMap map;
  while (!entries.empty()) {
    std::string key(entries.string(field));
    map[std::move(key)] = std::string(entries.string(field));
  }
  return map;
}

ByteReader ByteReader::prefixed_u32(std::string_view field) {
  const auto length = get<std::uint32_t>(field);
  const std::uint64_t at = offset();
  return {take(length, field), at, what_};
}

std::span<const std::uint8_t> ByteReader::prefixed_u64(std::string_view field) {
  const auto length = get<std::uint64_t>(field);
  if (length > data_.size() - pos_) {
    throw McapFormatError(offset(), std::string(what_) + ": field '" + std::string(field) +
                                        "' claims " + std::to_string(length) + " bytes, " +
                                        std::to_string(data_.size() - pos_) + " left");
  }
  return take(static_cast<std::size_t>(length), field);
}

std::span<const std::uint8_t> ByteReader::rest() noexcept {
  const auto out = data_.subspan(pos_);
  pos_ = data_.size();
  return out;
}

}  // namespace hil::io::record
