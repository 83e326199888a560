#pragma once
// `hilsim export RUN --blf FILE`: a candump log (a run's can.log) as a Vector BLF trace for
// CANoe/CANalyzer users (io/can/trace/blf_writer.hpp). Times are kept to the nanosecond,
// relative to the first frame (the BLF's start time); ` T` lines are written as transmitted.
// Interfaces become channels: a name ending in a number N (can0, vcan1) is channel N+1 — as
// our BLF reader, python-can and can-utils number them — and the others take the free channels
// from 1 in order of appearance. Malformed lines are skipped and counted.
// Thread-safety: a function of its arguments.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace hil::session {

struct BlfExport {
  std::size_t frames = 0;
  std::vector<std::string> bad_lines;  ///< "can.log:LINE:COLUMN: what", every one
  std::vector<std::pair<std::string, std::uint16_t>> channels;  ///< interface → BLF channel
};

/// Writes `blf` from the candump log `log`. Throws std::runtime_error when either file cannot
/// be opened or written, or the log has more than 65535 interfaces.
[[nodiscard]] BlfExport export_blf(const std::filesystem::path& log,
                                   const std::filesystem::path& blf);

}  // namespace hil::session
