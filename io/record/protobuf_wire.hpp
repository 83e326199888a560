#pragma once
// The Protobuf wire format (protobuf.dev/programming-guides/encoding) for the few types the
// telemetry messages use: varint (int64), fixed64 (double), length-delimited (string).
// Encoding appends to a buffer; WireReader walks a message's fields and never reads past
// its span (bad input sets error() and stops). Thread-safety: one thread per object.

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace hil::io::record::wire {

enum class WireType : std::uint8_t { varint = 0, fixed64 = 1, length_delimited = 2, fixed32 = 5 };

inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

inline void put_tag(std::vector<std::uint8_t>& out, std::uint32_t number, WireType type) {
  put_varint(out, (std::uint64_t{number} << 3) | static_cast<std::uint8_t>(type));
}

inline void put_double(std::vector<std::uint8_t>& out, double value) {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  const std::size_t at = out.size();
  out.resize(at + sizeof bits);
  std::memcpy(out.data() + at, &bits, sizeof bits);
}

inline void put_string(std::vector<std::uint8_t>& out, std::uint32_t number, std::string_view s) {
  put_tag(out, number, WireType::length_delimited);
  put_varint(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

/// One field of a message as read from the wire.
struct WireField {
  std::uint32_t number = 0;
  WireType type = WireType::varint;
  std::uint64_t scalar = 0;               ///< varint value, or the fixed64/fixed32 bits
  std::span<const std::uint8_t> bytes{};  ///< length-delimited payload
};

class WireReader {
 public:
  explicit WireReader(std::span<const std::uint8_t> message) noexcept : data_(message) {}

  /// Next field; false at the end of the message or on malformed input (then error()).
  [[nodiscard]] bool next(WireField& field) noexcept;
  [[nodiscard]] bool error() const noexcept { return error_; }

 private:
  [[nodiscard]] bool varint(std::uint64_t& value) noexcept;
  [[nodiscard]] bool fixed(std::size_t bytes, std::uint64_t& value) noexcept;

  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
  bool error_ = false;
};

}  // namespace hil::io::record::wire
