#pragma once
// What a rig's run shows on its operator console (docs/console.md) beyond channels and timing:
// the run's description, CAN counters per bus and the CAN view per message, the recording's
// counters, events (CAN timeouts, recorder errors) and the scenario's course. Setup phase
// builds it; the callbacks run on the console thread and only read counters (atomics), the
// channel snapshot and the recorder's thread-safe counters.

#include <optional>
#include <string>

#include "config/scenario/scenario_spec.hpp"
#include "io/console/console_feed.hpp"
#include "tools/session/loop/speed.hpp"

namespace hil::runtime {
class CommandQueue;
class FaultEngine;
class Recording;
class Rig;
class ScenarioJudge;
}  // namespace hil::runtime

namespace hil::session {

struct ConsoleRun {
  std::string rig;
  std::string run_id;
  Speed speed;
  std::int64_t start_epoch_ns = 0;
  const config::ScenarioSpec* scenario = nullptr;  ///< or none
  const runtime::Recording* recording = nullptr;   ///< or not recorded
  const runtime::ScenarioJudge* judge = nullptr;   ///< the scenario's gates, or none
  const runtime::FaultEngine* faults = nullptr;    ///< the run's faults, or none
};

/// The console's operator commands (docs/api.md) as commands of the loop's queue.
[[nodiscard]] std::function<std::vector<std::uint64_t>(const io::console::Command&)>
console_commands(runtime::CommandQueue& queue);

/// The feed of a run of `rig` (which, like the scenario and recording, must outlive it).
[[nodiscard]] io::console::ConsoleFeed console_feed(runtime::Rig& rig, const ConsoleRun& run);

/// The course message of a scenario: its path and the cones of its lane gates, in world
/// coordinates.
[[nodiscard]] nlohmann::json course_json(const config::ScenarioSpec& s);

}  // namespace hil::session
