#pragma once
// One line of a candump log (`candump -l`, `candump -L`), the run directory's can.log format
// (DESIGN.md §7), read by can-utils log2asc/canplayer and python-can's CanutilsLogReader:
//
//   (1436509052.249713) can0 123#DEADBEEF
//   (0000000012.500000) can1 1F334455##1112233 T
//
// Timestamp "(SECONDS.FRACTION)" with 6 (µs, what candump writes) or 9 (ns) decimals,
// interface name, frame text (candump_frame.hpp), and an optional direction suffix " R" or
// " T" (candump -x since can-utils 2020.11). Formatting writes exactly candump -l's
// "(%010lu.%06lu) %s %s": seconds zero-padded to 10 digits, microseconds, no suffix unless
// asked. Parsing and formatting neither allocate nor throw. Thread-safety: pure functions.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "io/can/can_frame.hpp"
#include "io/can/trace/candump_frame.hpp"

namespace hil::io::can {

/// Seconds and nanoseconds since an epoch (the wall clock for candump, the run start for
/// hilsim's recordings).
struct CandumpTimestamp {
  std::int64_t seconds = 0;
  std::uint32_t nanoseconds = 0;  ///< 0–999'999'999
  friend constexpr bool operator==(const CandumpTimestamp&, const CandumpTimestamp&) = default;
};

/// The " R"/" T" suffix of newer candump versions: received, or sent by this host.
enum class CandumpDirection : std::uint8_t { unspecified, received, transmitted };

/// A parsed log line. `interface` points into the parsed text (or the caller's storage).
struct CandumpLine {
  CandumpTimestamp time;
  std::string_view interface;
  CanFrame frame;
  CandumpDirection direction = CandumpDirection::unspecified;
};

struct CandumpParseResult {
  bool ok = false;
  CandumpLine line;
  TextError error;  ///< column into the whole line; set when !ok
};

/// Longest accepted interface name (Linux allows 15; python-can writes channel names).
inline constexpr std::size_t kMaxInterfaceLength = 64;
/// Longest line format_candump_line() writes: "(" 19 digits "." 9 ") " iface " " frame " T".
inline constexpr std::size_t kMaxCandumpLineLength =
    1 + 19 + 1 + 9 + 2 + kMaxInterfaceLength + 1 + kMaxFrameTextLength + 2;

/// Parses one line (without its '\n'; a trailing '\r' is accepted). Never throws, never
/// allocates. Leading and trailing blanks are allowed; fields are separated by blanks.
[[nodiscard]] CandumpParseResult parse_candump_line(std::string_view text) noexcept;

/// Writes `line` as candump -l does (no '\n') into `out`; the direction suffix is written only
/// when `line.direction` is not unspecified. Returns the characters written, or 0 if `out` is
/// smaller than kMaxCandumpLineLength, the frame is invalid, the interface is empty, too long
/// or contains blanks or control characters, or the time is negative. Never allocates.
[[nodiscard]] std::size_t format_candump_line(const CandumpLine& line,
                                              std::span<char> out) noexcept;

/// format_candump_line() into a string (no '\n'); empty when it would return 0.
[[nodiscard]] std::string to_candump_line(const CandumpLine& line);

}  // namespace hil::io::can
