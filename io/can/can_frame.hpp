#pragma once
// One CAN frame type for classic CAN and CAN FD: 11- or 29-bit identifier, RTR,
// error frames, FD with BRS/ESI, 0–64 data bytes. A plain value (no heap), cheap to copy
// through the RT path's rings. Thread-safety: a value type; no shared state.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace hil::io::can {

/// Flag bits of CanFrame::flags.
inline constexpr std::uint8_t kExtended = 1U << 0;  ///< 29-bit identifier (EFF)
inline constexpr std::uint8_t kRemote = 1U << 1;    ///< remote transmission request (RTR), classic
inline constexpr std::uint8_t kError = 1U
                                       << 2;   ///< error frame: id holds SocketCAN's CAN_ERR_* bits
inline constexpr std::uint8_t kFd = 1U << 3;   ///< CAN FD frame (FDF)
inline constexpr std::uint8_t kBrs = 1U << 4;  ///< FD bit-rate switch
inline constexpr std::uint8_t kEsi = 1U << 5;  ///< FD error state indicator

inline constexpr std::size_t kMaxClassicLength = 8;
inline constexpr std::size_t kMaxFdLength = 64;
inline constexpr std::uint32_t kMaxStandardId = 0x7FF;
inline constexpr std::uint32_t kMaxExtendedId = 0x1FFF'FFFF;

struct CanFrame {
  std::uint32_t id = 0;     ///< identifier without flag bits
  std::uint8_t length = 0;  ///< data bytes: 0–8 classic, 0–8/12/16/20/24/32/48/64 FD
  std::uint8_t flags = 0;   ///< the flag bits above (kExtended, ...)
  std::array<std::uint8_t, kMaxFdLength> data{};

  [[nodiscard]] constexpr bool extended() const noexcept { return (flags & kExtended) != 0; }
  [[nodiscard]] constexpr bool remote() const noexcept { return (flags & kRemote) != 0; }
  [[nodiscard]] constexpr bool error() const noexcept { return (flags & kError) != 0; }
  [[nodiscard]] constexpr bool fd() const noexcept { return (flags & kFd) != 0; }
  [[nodiscard]] constexpr bool brs() const noexcept { return (flags & kBrs) != 0; }
  [[nodiscard]] constexpr bool esi() const noexcept { return (flags & kEsi) != 0; }
  [[nodiscard]] std::span<const std::uint8_t> payload() const noexcept {
    return {data.data(), length};
  }

  /// Same id, flags, length and payload (bytes beyond `length` are ignored).
  friend constexpr bool operator==(const CanFrame& a, const CanFrame& b) noexcept {
    if (a.id != b.id || a.length != b.length || a.flags != b.flags) return false;
    for (std::size_t i = 0; i < a.length; ++i) {
      if (a.data[i] != b.data[i]) return false;
    }
    return true;
  }
};

/// Data length code → byte count (ISO 11898-1:2015): 0–8 as is; FD 9..15 → 12, 16, 20, 24,
/// 32, 48, 64. Classic frames cap at 8.
[[nodiscard]] constexpr std::size_t dlc_to_length(std::uint8_t dlc, bool fd) noexcept {
  constexpr std::array<std::uint8_t, 16> kFdLengths{0, 1,  2,  3,  4,  5,  6,  7,
                                                    8, 12, 16, 20, 24, 32, 48, 64};
  if (dlc > 15) dlc = 15;
  return fd ? kFdLengths[dlc] : (dlc > 8 ? 8 : dlc);
}

/// Byte count → the smallest DLC that holds it (FD lengths round up: 10 → DLC 9 = 12 bytes).
[[nodiscard]] constexpr std::uint8_t length_to_dlc(std::size_t length) noexcept {
  if (length <= 8) return static_cast<std::uint8_t>(length);
  if (length <= 12) return 9;
  if (length <= 16) return 10;
  if (length <= 20) return 11;
  if (length <= 24) return 12;
  if (length <= 32) return 13;
  if (length <= 48) return 14;
  return 15;
}

/// True for a length an FD frame can carry exactly (0–8, 12, 16, 20, 24, 32, 48, 64).
[[nodiscard]] constexpr bool is_valid_fd_length(std::size_t length) noexcept {
  return length <= kMaxFdLength && dlc_to_length(length_to_dlc(length), true) == length;
}

/// Structural validity: id fits its format, length fits classic/FD, RTR only on classic,
/// BRS/ESI only on FD.
[[nodiscard]] constexpr bool is_valid(const CanFrame& f) noexcept {
  if (f.id > (f.extended() ? kMaxExtendedId : kMaxStandardId) && !f.error()) return false;
  if (f.fd()) return !f.remote() && is_valid_fd_length(f.length);
  return f.length <= kMaxClassicLength && !f.brs() && !f.esi();
}

}  // namespace hil::io::can
