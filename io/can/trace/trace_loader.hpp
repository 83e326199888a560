#pragma once
// Loads a whole candump log, Vector ASC or BLF file into a Trace before anything is played
//: a malformed line (or BLF object) stops the load with "FILE:LINE:COLUMN: message" ("FILE:
// byte OFFSET: message") — so a bad log sends nothing — or, lenient, is skipped and counted. Setup
// phase: allocates and throws. Thread-safety: a function of its arguments.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/trace/trace.hpp"

namespace hil::io::can {

enum class TraceFormat : std::uint8_t {
  automatic,  ///< by extension (.asc) or by the first line that is not blank
  candump,    ///< candump -l / -L lines (candump_log.hpp)
  asc,        ///< Vector ASC (asc_reader.hpp); channel N becomes interface "can<N-1>"
  blf,        ///< Vector BLF (blf_reader.hpp); channel N becomes interface "can<N-1>"
};

[[nodiscard]] std::string_view to_string(TraceFormat format) noexcept;

struct TraceLoadSpec {
  bool lenient = false;  ///< skip malformed lines (counted) instead of failing on the first
  TraceFormat format = TraceFormat::automatic;
};

/// Bad-line messages a lenient load keeps (the count is always exact).
inline constexpr std::size_t kMaxReportedBadLines = 10;

struct TraceLoad {
  Trace trace;
  TraceFormat format = TraceFormat::automatic;  ///< the format read
  std::size_t bad_lines = 0;                    ///< lenient: lines skipped
  std::vector<std::string> first_bad_lines;     ///< "FILE:LINE:COLUMN: message", the first few
  std::size_t events = 0;  ///< ASC: timestamped lines that are not frames; BLF: objects (skipped)
  std::size_t error_frames = 0;  ///< error frames among the trace's frames
};

/// The ASC interface name of a 1-based channel: "can0" for channel 1 (as can-utils asc2log
/// and python-can number them).
[[nodiscard]] std::string asc_interface_name(std::uint32_t channel);

/// The format of `path`: BLF by its "LOGG" signature, ASC by the extension .asc or its first
/// line, else candump.
[[nodiscard]] TraceFormat detect_trace_format(const std::filesystem::path& path);

/// Reads `path`. Throws std::runtime_error when the file cannot be read, on the first bad
/// line unless lenient ("FILE:LINE:COLUMN: message"), and past Trace::kMaxFrames frames.
[[nodiscard]] TraceLoad load_trace(const std::filesystem::path& path,
                                   const TraceLoadSpec& options = {});

/// The same from a stream of the given format (automatic is read as candump); `name` prefixes
/// messages.
[[nodiscard]] TraceLoad load_trace(std::istream& in, const std::string& name, TraceFormat format,
                                   bool lenient);

}  // namespace hil::io::can
