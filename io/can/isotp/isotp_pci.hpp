#pragma once
// The protocol control information (N_PCI) of ISO 15765-2 (ISO-TP) frames: a pure codec, no
// state. Four frame types in the high nibble of the first byte after the optional address
// byte (extended addressing):
//
//   single       0x0L data…            SF_DL = L (1–7), CAN_DL ≤ 8
//                0x00 LL data…         escape: SF_DL = LL, CAN FD frames with CAN_DL > 8
//   first        0x1H LL data…         FF_DL = 0xHLL (12 bit, ≥ FF_DLmin)
//                0x10 00 L3 L2 L1 L0   escape: 32-bit FF_DL > 4095
//   consecutive  0x2N data…            sequence number N (0–15)
//   flow control 0x3S BS STmin         flow status S: 0 continue to send, 1 wait, 2 overflow
//
// decode() applies the receiver's frame-level rules of the standard (a frame failing them is
// to be ignored); what depends on the connection's state (a CF's length against the FF's,
// the sequence) is the Link's (link.hpp). Everything here is noexcept and allocation-free:
// RT-safe. Thread-safety: pure functions.

#include <cstddef>
#include <cstdint>
#include <span>

namespace hil::io::can::isotp {

enum class FrameType : std::uint8_t { single = 0, first = 1, consecutive = 2, flow_control = 3 };

/// FS of a flow control frame; values 3–15 are reserved (decode() reports them).
enum class FlowStatus : std::uint8_t { continue_to_send = 0, wait = 1, overflow = 2 };

/// One frame's N_PCI. Fields that a type does not use stay 0.
struct Pci {
  FrameType type = FrameType::single;
  std::uint32_t length = 0;   ///< SF_DL (single) or FF_DL (first)
  bool escape = false;        ///< SF_DL in the second byte / 32-bit FF_DL
  std::uint8_t sequence = 0;  ///< SN (consecutive), 0–15
  FlowStatus flow_status = FlowStatus::continue_to_send;  ///< FS (flow control)
  std::uint8_t block_size = 0;                            ///< BS (flow control)
  std::uint8_t st_min = 0;                                ///< raw STmin (flow control)
};

enum class PciError : std::uint8_t {
  none,
  too_short,             ///< no PCI byte, a truncated PCI, a CF without data, an FF in < 8 bytes
  reserved_type,         ///< high nibble 4–15
  bad_length,            ///< SF_DL 0 or beyond the frame, escape misuse, FF_DL below FF_DLmin
  reserved_flow_status,  ///< FS 3–15: a sender waiting for FC aborts (N_INVALID_FS)
};

struct Decoded {
  PciError error = PciError::none;
  Pci pci;                                ///< filled as far as decoded (FS even if reserved)
  std::span<const std::uint8_t> payload;  ///< SF: SF_DL bytes; FF, CF: the rest of the frame
};

inline constexpr std::uint32_t kMaxShortFirstLength = 4095;  ///< largest FF_DL without escape
inline constexpr std::size_t kClassicDl = 8;                 ///< CAN_DL of classic frames

/// Decodes the PCI of `frame_data` (a frame's whole data field, CAN_DL = its size), which
/// starts with `address_bytes` (0 normal, 1 extended addressing) address bytes.
[[nodiscard]] Decoded decode(std::span<const std::uint8_t> frame_data,
                             std::size_t address_bytes) noexcept;

/// Writes `pci` at the start of `out` (behind any address byte); returns the PCI's size, or 0
/// if `out` is too short or `pci` has no encoding: SF_DL 0, > 7 short or > 255 escaped; FF_DL
/// 0, > 4095 without or ≤ 4095 with escape; SN > 15; a reserved FS.
[[nodiscard]] std::size_t encode(const Pci& pci, std::span<std::uint8_t> out) noexcept;

/// The smallest FF_DL a receiver accepts in a first frame of `can_dl` bytes (FF_DLmin): 8 for
/// CAN_DL 8, CAN_DL − 1 above, one less with an address byte.
[[nodiscard]] constexpr std::uint32_t min_first_length(std::size_t can_dl,
                                                       std::size_t address_bytes) noexcept {
  const std::size_t base = can_dl <= kClassicDl ? kClassicDl : can_dl - 1;
  return static_cast<std::uint32_t>(base - address_bytes);
}

/// The most message bytes a single frame carries in frames of up to `tx_dl` bytes.
[[nodiscard]] constexpr std::size_t max_single_length(std::size_t tx_dl,
                                                      std::size_t address_bytes) noexcept {
  return tx_dl - address_bytes - (tx_dl <= kClassicDl ? 1 : 2);
}

/// True for an STmin a receiver may send: 0x00–0x7F (ms) or 0xF1–0xF9 (100–900 µs).
[[nodiscard]] constexpr bool is_valid_st_min(std::uint8_t raw) noexcept {
  return raw <= 0x7F || (raw >= 0xF1 && raw <= 0xF9);
}

/// The separation time an STmin asks for, in nanoseconds; a reserved value counts as 0x7F
/// (127 ms), as the standard tells the sender.
[[nodiscard]] constexpr std::int64_t st_min_ns(std::uint8_t raw) noexcept {
  constexpr std::int64_t kMs = 1'000'000;
  constexpr std::int64_t kHundredUs = 100'000;
  if (raw <= 0x7F) return raw * kMs;
  if (raw >= 0xF1 && raw <= 0xF9) return (raw - 0xF0) * kHundredUs;
  return 0x7F * kMs;
}

}  // namespace hil::io::can::isotp
