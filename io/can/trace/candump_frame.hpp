#pragma once
// The frame text of can-utils (cansend, candump -l/-L): the part after the interface name.
//
//   123#DEADBEEF          classic, 3 hex digits = 11-bit id, 0–8 data bytes
//   1F334455#11223344     8 hex digits = 29-bit id
//   123#R   123#R7        remote request, optionally with its length (0–8)
//   123##1112233          CAN FD: '##', one hex digit of FD flags (BRS 1, ESI 2), 0–64 bytes
//   20000080#0000000000000000   error frame: 8 digits with CAN_ERR_FLAG (0x20000000)
//
// Data bytes may be separated by '.' on input (cansend syntax, "123#11.22.33"); output never
// has separators, exactly as candump -l writes. Parsing and formatting neither allocate nor
// throw, so a recorder thread can use them per frame. Thread-safety: pure functions.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

/// SocketCAN's CAN_ERR_FLAG: an 8-digit id with this bit is an error frame.
inline constexpr std::uint32_t kCanErrFlag = 0x2000'0000;
/// FD flag bits of the nibble after '##' (linux/can.h CANFD_BRS, CANFD_ESI).
inline constexpr std::uint8_t kCandumpFdBrs = 0x1;
inline constexpr std::uint8_t kCandumpFdEsi = 0x2;
/// Longest frame text: 8 id digits, '##', flag digit, 64 bytes as hex.
inline constexpr std::size_t kMaxFrameTextLength = 8 + 2 + 1 + 2 * kMaxFdLength;

/// Where and why a text did not parse. `message` is a static string (no allocation).
struct TextError {
  std::size_t column = 0;  ///< 0-based offset into the parsed text
  std::string_view message;
};

struct FrameParseResult {
  bool ok = false;
  CanFrame frame;
  TextError error;  ///< set when !ok
};

/// Parses one frame text (no surrounding whitespace). Never throws, never allocates.
[[nodiscard]] FrameParseResult parse_frame_text(std::string_view text) noexcept;

/// Writes the frame as candump -l does into `out`; returns the characters written, or 0 when
/// `out` is too small (kMaxFrameTextLength always suffices) or the frame is not valid
/// (is_valid()). No terminating NUL. Never allocates.
[[nodiscard]] std::size_t format_frame_text(const CanFrame& frame, std::span<char> out) noexcept;

/// format_frame_text() into a string (setup or tools code). Empty for an invalid frame.
[[nodiscard]] std::string to_frame_text(const CanFrame& frame);

}  // namespace hil::io::can
