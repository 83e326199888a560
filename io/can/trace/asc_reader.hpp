#pragma once
// Vector ASC logs: the text format CANoe/CANalyzer write, and can-utils `log2asc`
// and python-can's ASCWriter produce:
//
//   date Tue Nov 14 22:13:20 2023
//   base hex  timestamps absolute
//   no internal events logged
//   Begin Triggerblock Tue Nov 14 22:13:20.000 2023
//      0.000000 Start of measurement
//      0.001000 1  123             Rx   d 4 DE AD BE EF
//      0.002000 1  1F334455x       Tx   d 2 11 22
//      0.003000 1  123             Rx   r 7
//      0.004000 2  ErrorFrame
//      0.005000 CANFD   1 Rx        321   1 0 9 12 00 11 … BB   130000  130     3000 0 0 0 0 0
//   End TriggerBlock
//
// Classic lines: TIME CHANNEL ID[x] Rx|Tx d DLC BYTES… (or `r [DLC]` for a remote request);
// CANoe's trailing attributes ("Length = … BitCount = …") are ignored. CAN FD lines:
// TIME CANFD CHANNEL Rx|Tx ID[x] [NAME] BRS ESI DLC DATA_LENGTH BYTES… [DURATION LENGTH
// FLAGS …]; FLAGS (hex) tells FD (EDL 0x1000) from classic (log2asc -f) and marks remote
// requests (0x10); without FLAGS the line is FD. An ErrorFrame has no details in ASC: it
// becomes the error frame can-utils asc2log makes, class CAN_ERR_BUSERROR (0x80) with 8 zero
// bytes. `base dec` reads ids and bytes in decimal; `timestamps relative` makes each time
// relative to the previous timestamped line. A later `Begin Triggerblock` restarts at 0 in
// the file; its times continue after the last time of the block before. Other timestamped
// lines (Start of measurement, Statistic:, CAN 1 Status:, SV:, J1939TP…) are events:
// counted and skipped. Any other line is a bad line with its column and the reason.
//
// Thread-safety: a parser or reader is used by one thread; it owns no shared state.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "io/can/can_frame.hpp"
#include "io/can/trace/candump_frame.hpp"

namespace hil::io::can {

namespace detail {
struct AscTokens;  // the blank-separated fields of one line (asc_reader.cpp)
}  // namespace detail

/// The error class asc2log gives an ASC ErrorFrame (linux/can/error.h CAN_ERR_BUSERROR).
inline constexpr std::uint32_t kAscErrorFrameClass = 0x80;
/// Longest line the reader keeps; longer lines are bad lines (an FD line is ~400 characters).
inline constexpr std::size_t kMaxAscReadLength = 4096;

struct AscFrame {
  std::int64_t time_ns = 0;   ///< since the measurement start (the first trigger block)
  std::uint32_t channel = 0;  ///< 1-based, as in the file
  CanFrame frame;
};

/// What one line was.
struct AscLineResult {
  enum class Kind : std::uint8_t {
    frame,   ///< `frame` is set
    header,  ///< a header, comment, trigger-block line or blank line
    event,   ///< a timestamped line that is not a CAN frame
    bad,     ///< `error` says where and why
  };
  Kind kind = Kind::header;
  AscFrame frame;
  TextError error;  ///< column into the line (0-based)
};

/// Parses lines in file order: it keeps the `base`, the timestamp mode and the trigger-block
/// offset that earlier lines set. Never throws, never allocates.
class AscLineParser {
 public:
  /// One line without its '\n' (a trailing '\r' is a blank).
  [[nodiscard]] AscLineResult parse(std::string_view line) noexcept;

 private:
  [[nodiscard]] AscLineResult parse_header(std::string_view first, std::size_t column,
                                           detail::AscTokens& tokens) noexcept;
  [[nodiscard]] AscLineResult parse_timestamped(std::string_view first, std::size_t column,
                                                detail::AscTokens& tokens) noexcept;
  [[nodiscard]] AscLineResult parse_classic(AscFrame frame,
                                            detail::AscTokens& tokens) const noexcept;
  [[nodiscard]] AscLineResult parse_fd(AscFrame frame, detail::AscTokens& tokens) const noexcept;

  unsigned base_ = 16;
  bool relative_ = false;
  bool timed_line_seen_ = false;
  std::int64_t block_offset_ns_ = 0;
  std::int64_t last_time_ns_ = 0;
};

struct AscBadLine {
  std::size_t line = 0;    ///< 1-based
  std::size_t column = 0;  ///< 1-based
  std::string message;
};

/// Streaming reader of an ASC file: the frames one at a time, bad lines with their line and
/// column (it carries on after them), headers and events skipped and counted.
class AscReader {
 public:
  enum class Status : std::uint8_t { frame, bad_line, end };

  /// Reads from `in` (which must outlive the reader); `name` prefixes messages ("run.asc").
  AscReader(std::istream& in, std::string name);

  /// Advances to the next frame or bad line. After frame, frame() is valid until the next
  /// call; after bad_line, bad_line() is.
  [[nodiscard]] Status next();

  [[nodiscard]] const AscFrame& frame() const noexcept { return frame_; }
  [[nodiscard]] const AscBadLine& bad_line() const noexcept { return bad_; }
  /// "NAME:LINE:COLUMN: message" of the last bad line.
  [[nodiscard]] std::string describe_bad_line() const;

  [[nodiscard]] std::size_t line_number() const noexcept { return line_number_; }
  [[nodiscard]] std::size_t frames() const noexcept { return frames_; }
  [[nodiscard]] std::size_t bad_lines() const noexcept { return bad_lines_; }
  /// Timestamped lines that are not CAN frames (Start of measurement, statistics…).
  [[nodiscard]] std::size_t events() const noexcept { return events_; }

 private:
  std::istream& in_;
  std::string name_;
  std::string text_;
  AscLineParser parser_;
  AscFrame frame_;
  AscBadLine bad_;
  std::size_t line_number_ = 0;
  std::size_t frames_ = 0;
  std::size_t bad_lines_ = 0;
  std::size_t events_ = 0;
};

}  // namespace hil::io::can
