#pragma once
// The run and the replay a test records and compares (hilsim run --record DIR, then hilsim
// replay DIR): quiet, no RT set-up, no console; the test adds its rig, scenario, stages and
// commands to the RunSpec. Thread-safety: functions of their arguments.

#include <filesystem>
#include <string>

#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::session::testing {

/// A recorded run of `duration` into `dir` (as fast as it goes unless `speed` says otherwise).
inline RunSpec recorded_run(const std::filesystem::path& dir, const std::string& duration,
                            Speed speed = {.mode = Speed::Mode::max}) {
  RunSpec o;
  o.duration = duration;
  o.record_dir = dir.string();
  o.no_rt = true;
  o.quiet = true;
  o.speed = speed;
  o.console.enabled = false;
  return o;
}

/// A quiet replay of `dir` without console.
inline ReplaySpec replay_of(const std::filesystem::path& dir) {
  ReplaySpec r;
  r.source = dir.string();
  r.quiet = true;
  r.console.enabled = false;
  return r;
}

}  // namespace hil::session::testing
