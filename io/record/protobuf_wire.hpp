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

inline constexpr std::size_t kMaxVarintBytes = 10;
/// A field of fixed64 at most: its tag (a field number < 2^29: ≤ 5 bytes) and 8 bytes.
inline constexpr std::size_t kMaxFixed64FieldBytes = 5 + 8;

/// Writes `value` as a varint at `p` (room for kMaxVarintBytes); returns the end.
inline std::uint8_t* write_varint(std::uint8_t* p, std::uint64_t value) noexcept {
  while (value >= 0x80) {
    *p++ = static_cast<std::uint8_t>(value | 0x80);
    value >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(value);
  return p;
}

/// Writes a fixed64 field (tag, then the double's 8 bytes, little-endian as x86-64 and ARM
/// store them) at `p` (room for kMaxFixed64FieldBytes); returns the end.
inline std::uint8_t* write_fixed64_field(std::uint8_t* p, std::uint32_t number,
                                         double value) noexcept {
  p = write_varint(p, (std::uint64_t{number} << 3) | static_cast<std::uint8_t>(WireType::fixed64));
  const auto bits = std::bit_cast<std::uint64_t>(value);
  std::memcpy(p, &bits, sizeof bits);
  return p + sizeof bits;
}

inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value) {
  std::uint8_t bytes[kMaxVarintBytes];
  out.insert(out.end(), bytes, write_varint(bytes, value));
}

inline void put_tag(std::vector<std::uint8_t>& out, std::uint32_t number, WireType type) {
  put_varint(out, (std::uint64_t{number} << 3) | static_cast<std::uint8_t>(type));
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
