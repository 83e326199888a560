#pragma once
// `hilsim replay` (issue 6 "Replay into the simulator"): rebuilds a recorded run's rig from
// its run directory, feeds the recorded received frames at their ticks, runs open loop (as
// fast as possible, or paced), and compares every frame the simulator sends and every
// recorded channel sample with the recording: "identical: N frames, M samples", or the first
// divergence (tick, frame or channel, expected vs got) and a summary.
// External logs (a candump -l log from a real vehicle) replay into a rig named with --rig:
// frames apply at the tick their time falls into; the outputs are recorded for inspection.

#include <optional>
#include <string>
#include <vector>

namespace hil::session {

struct ReplayOptions {
  std::string source;                     ///< run directory, or a candump log with `rig`
  std::string speed = "max";              ///< "max" or a factor of real time (1.0: paced)
  std::optional<std::string> until;       ///< stop at this simulated time ("12.5s")
  std::optional<std::string> report;      ///< write the comparison as JSON here
  std::vector<std::string> overrides;     ///< overlays on the recorded rig (what-if, tests)
  std::optional<std::string> rig;         ///< external log: the rig to replay it into
  std::optional<std::string> record_dir;  ///< external log: where the outputs go
  bool lenient = false;  ///< skip (and count) malformed log lines instead of failing
  bool quiet = false;
};

/// Exit status: 0 identical (or an external log replayed), 1 divergence, 2 bad input.
[[nodiscard]] int replay(const ReplayOptions& options);

}  // namespace hil::session
