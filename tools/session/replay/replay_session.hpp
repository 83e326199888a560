#pragma once
// `hilsim replay`: a recorded run's recipe with its sources substituted (recipe.hpp
// RecordedSources) — the rig and scenario from its run directory, every recorded input at its
// tick — run open loop (as fast as possible, or paced) with the rig's real tick, and compared
// frame by frame and sample by sample with the recording: "identical: N frames, M samples",
// or the first divergence (tick, frame or channel, expected vs got) and a summary.
// External logs (a candump -l log from a real vehicle) replay into a rig named with --rig:
// frames apply at the tick their time falls into; the outputs are recorded for inspection.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/console/console_spec.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/session/loop/speed.hpp"
#include "tools/session/recipe.hpp"

namespace hil::session {

struct ReplaySpec {
  std::string source;                     ///< run directory, or a candump log with `rig`
  Speed speed{.mode = Speed::Mode::max};  ///< max, or paced (realtime or a factor)
  std::optional<std::string> until;       ///< stop at this simulated time ("12.5s")
  std::optional<std::string> report;      ///< write the comparison as JSON here
  std::vector<std::string> overrides;     ///< overlays on the recorded rig (what-if, tests)
  std::optional<std::string> rig;         ///< external log: the rig to replay it into
  std::optional<std::string> record_dir;  ///< external log: where the outputs go
  bool lenient = false;  ///< skip (and count) malformed log lines instead of failing
  /// Accept values within this relative deviation (of each channel's largest recorded
  /// magnitude); frames stay bit for bit. None: bit for bit.
  std::optional<double> tolerance;
  /// Channels (wildcards) the tolerance does not judge: still compared and reported.
  std::vector<std::string> ignore;
  /// Faults (of the rig, the scenario or commands.log) the replay leaves out: what-if.
  std::vector<std::string> without_faults;
  /// Tests: more stages for the replayed tick, as the run had them (e.g. a decimated one).
  std::function<void(runtime::TickPlan&, runtime::Rig&)> extra_stages;
  bool quiet = false;
  io::console::ConsoleSpec console;  ///< --console
};

/// What a replay with these options is made of.
[[nodiscard]] Recipe replay_recipe(const ReplaySpec& options);

/// Exit status: 0 identical, within the tolerance, or an external log replayed; 1 divergence;
/// 2 bad input.
[[nodiscard]] int replay(const ReplaySpec& options);

}  // namespace hil::session
