#pragma once
// MCAP's primitive serialization (spec § Serialization): little-endian fixed-width integers,
// u32-length-prefixed strings, u32-byte-length-prefixed maps and arrays, and records framed
// as opcode + u64 length. ByteWriter appends to a caller-owned buffer; ByteReader reads a
// bounded span and throws McapFormatError naming the field and the file offset of a field
// that runs past its end. Thread-safety: one thread per object.

#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/record/mcap/mcap_format.hpp"

namespace hil::io::record {

static_assert(std::endian::native == std::endian::little, "MCAP is little-endian; so is x86");

/// Malformed MCAP input: what (with the field's name) and where (absolute file offset).
class McapFormatError : public std::runtime_error {
 public:
  McapFormatError(std::uint64_t offset, const std::string& what)
      : std::runtime_error("offset " + std::to_string(offset) + ": " + what), offset_(offset) {}
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t offset_;
};

using StringMap = std::map<std::string, std::string>;

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::uint8_t>& out) noexcept : out_(out) {}

  template <class T>
  void put(T value) {
    static_assert(std::is_integral_v<T>, "MCAP fixed-width fields are integers");
    const std::size_t at = out_.size();
    out_.resize(at + sizeof(T));
    std::memcpy(out_.data() + at, &value, sizeof(T));
  }
  void bytes(std::span<const std::uint8_t> data) {
    out_.insert(out_.end(), data.begin(), data.end());
  }
  void string(std::string_view s);
  void string_map(const StringMap& map);

  /// Writes the opcode and a length placeholder; returns the record's start for end_record().
  [[nodiscard]] std::size_t begin_record(Opcode op);
  /// Patches the length of the record begun at `start`; returns the record's total size.
  std::size_t end_record(std::size_t start) noexcept;
  /// Patches a u32 byte-length prefix written as put<uint32_t>(0) at `at`.
  void patch_u32_length(std::size_t at) noexcept;

  [[nodiscard]] std::size_t size() const noexcept { return out_.size(); }

 private:
  std::vector<std::uint8_t>& out_;
};

class ByteReader {
 public:
  /// `data` starts at absolute file offset `base` (for error messages).
  ByteReader(std::span<const std::uint8_t> data, std::uint64_t base, std::string_view what)
      : data_(data), base_(base), what_(what) {}

  template <class T>
  [[nodiscard]] T get(std::string_view field) {
    T value{};
    std::memcpy(&value, take(sizeof(T), field).data(), sizeof(T));
    return value;
  }
  [[nodiscard]] std::span<const std::uint8_t> take(std::size_t n, std::string_view field);
  [[nodiscard]] std::string_view string(std::string_view field);
  [[nodiscard]] StringMap string_map(std::string_view field);
  /// The bytes of a u32-byte-length-prefixed array or map, as a reader of its own.
  [[nodiscard]] ByteReader prefixed_u32(std::string_view field);
  /// The bytes of a u64-length-prefixed field.
  [[nodiscard]] std::span<const std::uint8_t> prefixed_u64(std::string_view field);
  [[nodiscard]] std::span<const std::uint8_t> rest() noexcept;

  [[nodiscard]] bool empty() const noexcept { return pos_ == data_.size(); }
  [[nodiscard]] std::uint64_t offset() const noexcept { return base_ + pos_; }

 private:
  std::span<const std::uint8_t> data_;
  std::uint64_t base_;
  std::string_view what_;
  std::size_t pos_ = 0;
};

}  // namespace hil::io::record
