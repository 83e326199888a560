#pragma once
// `hilsim run` (issue 7): a rig, its ECU (built-in virtual or a real one on --can), an
// optional scenario, recording (issue 6), the real-time loop, progress and the summary.
// Setup phase in run(); the loop runs on the RT thread; run() returns the exit status.

#include <optional>
#include <string>
#include <vector>

#include "tools/session/rig_setup.hpp"

namespace hil::session {

struct RunOptions {
  RigSelection selection;                 ///< rig, overlays, scenario, ECU
  std::optional<std::string> duration;    ///< "30s"; default: the scenario's, else until ^C
  std::optional<std::string> record_dir;  ///< --record DIR: the run directory itself
  std::string runs_dir = "runs";          ///< parent of automatic run directories
  bool no_record = false;
  bool no_rt = false;  ///< normal thread, no memory locking (laptops, CI)
  bool quiet = false;  ///< no progress lines
};

/// Runs and prints the summary. Exit status: 0 completed or stopped with Ctrl-C, 1 setup
/// error, 3 the overrun policy stop_after ended the run, 4 the scenario's criteria failed.
[[nodiscard]] int run_rig(const RunOptions& options);

}  // namespace hil::session
