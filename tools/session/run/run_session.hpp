#pragma once
// `hilsim run`: a rig, its ECU (built-in virtual or a real one on --can), an optional
// scenario, recording, at the chosen speed, with progress and the summary. Its recipe (live
// sources, the built-in ECU, a run directory) goes to RunBuilder; run_rig() returns the exit
// status. A sweep's variants are this recipe too (tools/sweep/sweep_runner.hpp).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/console/console_spec.hpp"
#include "runtime/commands/command_queue.hpp"
#include "tools/session/loop/speed.hpp"
#include "tools/session/recipe.hpp"

namespace hil::session {

struct RunSpec {
  RigFiles rig;                        ///< rig, overlays, scenario
  std::optional<std::string> can_uri;  ///< --can: a real ECU on this transport
  /// --joystick: an evdev device (or FIFO) for the rig's driver block (docs/console.md
  /// "Driving").
  std::optional<std::string> joystick;
  std::string ecu = "virtual";            ///< "virtual" (in process) or "none"
  std::optional<std::string> duration;    ///< "30s"; default: the scenario's, else until ^C
  std::optional<std::string> record_dir;  ///< --record DIR: the run directory itself
  std::string runs_dir = "runs";          ///< parent of automatic run directories
  bool no_record = false;
  /// --split-size MiB, --split-duration: split telemetry files (over the rig's recording block).
  std::optional<double> split_size_mb;
  std::optional<std::string> split_duration;
  bool no_rt = false;                ///< normal thread, no memory locking (laptops, CI)
  Speed speed;                       ///< realtime, max (SIL, as fast as possible) or a factor
  bool quiet = false;                ///< no progress lines
  io::console::ConsoleSpec console;  ///< --console
  /// --paused (with --speed max): the loop waits for step/resume from the console or the API.
  bool paused = false;
  /// Tests: more stages in the tick (e.g. a decimated one, to show that replay runs it alike).
  std::function<void(runtime::TickPlan&, runtime::Rig&)> extra_stages;
  /// Tests (and later the automation API): the run's command queue, before the run starts.
  std::function<void(runtime::CommandQueue&)> with_commands;
};

/// What `hilsim run` with these options is made of.
[[nodiscard]] Recipe run_recipe(const RunSpec& options);

/// Runs and prints the summary. Exit status: 0 completed or stopped with Ctrl-C, 1 setup
/// error (also: a speed other than realtime with a transport that is not virtual:), 3 the
/// overrun policy stop_after ended the run, 4 the scenario's criteria failed, 5 the run
/// completed but its recording stopped early (disk full, I/O error; manifest.json says where).
[[nodiscard]] int run_rig(const RunSpec& options);

}  // namespace hil::session
