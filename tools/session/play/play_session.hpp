#pragma once
// `hilsim play`: a candump, ASC or BLF trace sent onto CAN transports with its own timing —
// each frame at start + (t − t0)/speed on CLOCK_MONOTONIC — on an RT thread when permitted,
// with progress and what reached the transports. No rig and no tick: the trace player
// (io/can/trace/trace_player.hpp) keeps every frame's own time.

#include <optional>
#include <string>
#include <vector>

#include "rt_core/time.hpp"
#include "tools/session/loop/speed.hpp"
#include "tools/session/play/play_report.hpp"

namespace hil::session {

struct PlaySpec {
  std::string log;
  std::string to;                 ///< the default destination URI ("" none)
  std::vector<std::string> maps;  ///< IFACE=URI
  std::uint64_t loops = 1;        ///< 0 until stopped
  Speed speed;                    ///< realtime: the log's own timing
  std::string ids;                ///< candump-style id filter ("" all)
  bool lenient = false;
  std::optional<rt::Nanoseconds> loop_gap;  ///< default: the trace's median gap
  rt::Nanoseconds late = rt::kMillisecond;
  rt::Nanoseconds back_pressure_wait = 100 * rt::kMillisecond;
  int priority = 80;
  bool quiet = false;
};

/// Plays the trace; what was sent. Throws std::invalid_argument (a bad --map, nothing to send
/// to) or std::runtime_error (a log that cannot be read, holds no frame, or a transport that
/// does not open), naming what is wrong.
[[nodiscard]] PlayReport play_trace(const PlaySpec& options);

}  // namespace hil::session
