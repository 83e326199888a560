#pragma once
// The Lawicel serial-line CAN protocol (SLCAN) spoken by CANable and similar USB adapters,
// as pure functions so that they can be tested and fuzzed apart from the tty.
//
//   tIIILDD…\r       standard frame: 3 hex id digits, DLC digit 0–8, 2 hex digits per byte
//   TIIIIIIIILDD…\r  extended frame: 8 hex id digits
//   rIIIL\r RIIIIIIIIL\r   remote request (standard / extended): DLC, no data
//   dIIIL… DIIIIIIIIL…     CAN FD without bit-rate switch; L is a hex DLC 0–F (12…64 bytes)
//   bIIIL… BIIIIIIIIL…     CAN FD with bit-rate switch
//   \r                     "OK" reply to a command;   \a (BEL) error reply
//   z\r  Z\r               reply to t/r and T/R (some adapters)
//   O C L Sn sXXYY V N F Zn Mx mx Xn Wn Un Qn A P   commands (from a host)
// A frame line may end with a 4-hex-digit timestamp (Z1 mode); it is accepted and ignored.
// Parsing accepts lowercase hex; formatting writes uppercase, as the adapters do. SLCAN has no
// error frames and no ESI bit: format_frame refuses the former and drops the latter.
// Thread-safety: stateless functions; LineAssembler is a value used by one thread.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "io/can/can_frame.hpp"

namespace hil::io::can::slcan {

/// Longest valid line without its '\r': "B" + 8 id digits + DLC + 128 data digits + 4
/// timestamp digits.
inline constexpr std::size_t kMaxLineBytes = 1 + 8 + 1 + 2 * kMaxFdLength + 4;
/// Longest line format_frame writes, with its '\r'.
inline constexpr std::size_t kMaxFormattedBytes = 1 + 8 + 1 + 2 * kMaxFdLength + 1;

inline constexpr char kOkByte = '\r';
inline constexpr char kBellByte = '\a';

enum class LineKind : std::uint8_t {
  frame,         ///< t T r R d D b B: the frame argument is filled
  ok,            ///< empty line: a command succeeded
  transmit_ack,  ///< "z" or "Z": the adapter queued our frame
  command,       ///< a host command (the other side acts as host): acknowledge it
  response,      ///< an adapter's reply to V, N or F: ignored
  malformed,     ///< anything else
};

/// Classifies one line (without its terminator) and decodes a frame line into `frame`.
[[nodiscard]] LineKind parse_line(std::string_view line, CanFrame& frame) noexcept;

/// Writes `frame` as one line with its '\r' into `out`; returns the bytes written, or 0 when
/// SLCAN cannot carry it (error frame, invalid frame) or `out` is too small.
[[nodiscard]] std::size_t format_frame(const CanFrame& frame, std::span<char> out) noexcept;

/// The Sn command digit for a bitrate: S0 10k, S1 20k, S2 50k, S3 100k, S4 125k, S5 250k,
/// S6 500k, S7 800k (Lawicel; CANable firmware and python-can call it 750k: both map here),
/// S8 1M. nullopt for any other bitrate.
[[nodiscard]] std::optional<char> bitrate_digit(std::uint32_t bitrate) noexcept;

/// Cuts a byte stream into lines, with a bounded buffer: a line longer than kMaxLineBytes is
/// reported once as overlong and skipped up to its '\r'. BEL is a line of its own (bell);
/// '\n' is ignored (some tools send "\r\n").
class LineAssembler {
 public:
  enum class Event : std::uint8_t { none, line, bell, overlong };

  /// Feeds one byte. After line, line() holds the line until the next push().
  [[nodiscard]] Event push(char byte) noexcept;
  [[nodiscard]] std::string_view line() const noexcept { return {buffer_.data(), size_}; }

 private:
  std::array<char, kMaxLineBytes> buffer_{};
  std::size_t size_ = 0;
  bool complete_ = false;    // the previous push ended a line: start afresh
  bool discarding_ = false;  // inside an overlong line
};

}  // namespace hil::io::can::slcan
