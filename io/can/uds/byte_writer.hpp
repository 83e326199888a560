#pragma once
// Big-endian byte access for UDS messages (ISO 14229-1 sends every multi-byte parameter most
// significant byte first): a writer over a caller's buffer that never writes past its end but
// remembers that it would have (the server answers that with NRC 0x14 responseTooLong), and
// readers of 16/24/32-bit fields. noexcept, no allocation: RT-safe.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace hil::io::can::uds {

/// Appends to `out`; bytes that do not fit are dropped and counted as overflow.
class ByteWriter {
 public:
  explicit ByteWriter(std::span<std::uint8_t> out) noexcept : out_(out) {}

  void u8(std::uint8_t v) noexcept {
    if (size_ < out_.size()) {
      out_[size_++] = v;
    } else {
      overflow_ = true;
    }
  }
  void u16(std::uint16_t v) noexcept {
    u8(static_cast<std::uint8_t>(v >> 8));
    u8(static_cast<std::uint8_t>(v));
  }
  void u24(std::uint32_t v) noexcept {
    u8(static_cast<std::uint8_t>(v >> 16));
    u16(static_cast<std::uint16_t>(v));
  }
  void u32(std::uint32_t v) noexcept {
    u16(static_cast<std::uint16_t>(v >> 16));
    u16(static_cast<std::uint16_t>(v));
  }
  void bytes(std::span<const std::uint8_t> data) noexcept {
    const std::span<std::uint8_t> to = reserve(data.size());
    std::copy(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(to.size()), to.begin());
  }

  /// The next `n` bytes of the buffer, counted as written; empty (and overflow) if they do
  /// not fit (n = 0 gives an empty span too, without overflow).
  [[nodiscard]] std::span<std::uint8_t> reserve(std::size_t n) noexcept {
    if (n > out_.size() - size_) {
      overflow_ = true;
      return {};
    }
    const std::span<std::uint8_t> s = out_.subspan(size_, n);
    size_ += n;
    return s;
  }

  /// The unwritten rest of the buffer, for a producer that reports how much it used (commit).
  [[nodiscard]] std::span<std::uint8_t> free_space() const noexcept { return out_.subspan(size_); }
  void commit(std::size_t n) noexcept { size_ += std::min(n, out_.size() - size_); }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool overflow() const noexcept { return overflow_; }
  /// What a complete message returns: its size, or 0 if any byte did not fit.
  [[nodiscard]] std::size_t finish() const noexcept { return overflow_ ? 0 : size_; }

 private:
  std::span<std::uint8_t> out_;
  std::size_t size_ = 0;
  bool overflow_ = false;
};

/// Big-endian fields of a message; the caller checks the length first.
[[nodiscard]] inline std::uint16_t get_u16(std::span<const std::uint8_t> m,
                                           std::size_t at) noexcept {
  return static_cast<std::uint16_t>((m[at] << 8) | m[at + 1]);
}
[[nodiscard]] inline std::uint32_t get_u24(std::span<const std::uint8_t> m,
                                           std::size_t at) noexcept {
  return (static_cast<std::uint32_t>(m[at]) << 16) | (static_cast<std::uint32_t>(m[at + 1]) << 8) |
         m[at + 2];
}
[[nodiscard]] inline std::uint32_t get_u32(std::span<const std::uint8_t> m,
                                           std::size_t at) noexcept {
  return (static_cast<std::uint32_t>(m[at]) << 24) | get_u24(m, at + 1);
}

}  // namespace hil::io::can::uds
