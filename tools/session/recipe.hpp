#pragma once
// What a run is made of (docs/architecture.md "Recipes"), as plain choices: the rig, where its
// inputs come from (sources), where its outputs go (sinks), who is at the other end of its CAN
// bus (peer), the console and the clock. RunBuilder (run_builder.hpp) assembles a Run from a
// recipe, in one place; every command that runs something makes one:
//   hilsim run            live sources, the built-in ECU (or --can's), recorded
//   hilsim replay DIR     a run directory's recorded inputs, no peer, compared with it
//   hilsim replay LOG     a log's frames into a rig, no peer, recorded
//   hilsim ecu            the built-in ECU alone on a transport (the rig runs elsewhere)
//   hilsim timing --rig   live sources, the built-in ECU, nothing recorded
//   hilsim sweep          one `run` recipe per variant, each in a child process
//   hilsim timing         the executive alone with a synthetic load (no rig)
// (`hilsim play` runs no loop of ticks: its trace player keeps each frame's own time.)
// Replay is a substitution of sources: the same rig, scenario, faults and stages as the run,
// with each live input replaced by its recording.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/console/console_spec.hpp"
#include "rt_core/executive_spec.hpp"
#include "rt_core/rt_spec.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/session/loop/speed.hpp"

namespace hil::runtime {
class CommandQueue;
class Rig;
}  // namespace hil::runtime

namespace hil::session {

/// The rig and its scenario, from their files.
struct RigFiles {
  std::string rig = "ravon";          ///< a name or a rig file (config/rig/rig_locator.hpp)
  std::vector<std::string> overlays;  ///< applied on the rig file, in order
  std::string scenario;               ///< a name or a file; "" the rig's default; "none"
};

/// The rig and its scenario already loaded (tests, benchmarks: a scenario from a text).
struct LoadedRig {
  std::string name;  ///< the rig's short name
  config::RigSpec settings;
  std::optional<config::ScenarioSpec> scenario;
};

// ---- sources: where the inputs come from ----

/// The rig's transports (the first bus on `can_uri` when given), the shared-memory bus as
/// co-simulators reach it, commands from the console and the API, FMU workers as fast as they
/// are.
struct LiveSources {
  std::optional<std::string> can_uri;  ///< --can: a real ECU on the first bus
  /// --joystick: an evdev device (or a FIFO of input_event records) for the rig's driver
  /// block's EVDEV controls, over the block's evdev_device.
  std::optional<std::string> joystick;
};

/// A recorded run directory: its rig and scenario, and every input at the tick the run
/// applied it — received frames (can.log), bus snapshots (bus.log), FMU timing (fmu.log),
/// commands (commands.log).
struct RecordedSources {
  std::filesystem::path dir;
  std::vector<std::string> overrides;       ///< overlays on the recorded rig (what-if)
  std::vector<std::string> without_faults;  ///< faults (rig, scenario, commands) left out
  bool lenient = false;                     ///< skip (and count) malformed log lines
};

/// A CAN log from elsewhere (candump, ASC, BLF) into the rig: each frame at the tick its time
/// since the log's first frame falls into, on the bus of its interface's name (else the first).
struct ExternalLog {
  std::filesystem::path file;
  bool lenient = false;
};

using Sources = std::variant<LiveSources, RecordedSources, ExternalLog>;

// ---- peer: the other end of the rig's first CAN bus ----

enum class Peer : std::uint8_t {
  builtin_ecu,  ///< the virtual ECU in process, when the scenario has a drive (else none)
  none,         ///< nobody in process: a real ECU (--can), or a replay's recording
  ecu_alone,    ///< the virtual ECU on its own on the transport, no rig (`hilsim ecu`)
};

// ---- sinks: where the outputs go ----

/// A run directory (DESIGN.md §7): manifest, rig and scenario, can.log, telemetry.mcap and
/// bus.log, fmu.log, commands.log as the run has them.
struct RecordSink {
  std::optional<std::filesystem::path> dir;   ///< --record DIR: the run directory itself
  std::filesystem::path runs_dir = "runs";    ///< else <runs_dir>/<rig>-<UTC time>
  std::string name_suffix;                    ///< "-replay": <rig>-replay-<UTC time>
  std::optional<double> split_size_mb;        ///< --split-size, over the rig's recording block
  std::optional<std::string> split_duration;  ///< --split-duration
};

// ---- the clock and the loop ----

struct ClockChoice {
  Speed speed;          ///< realtime, max (as fast as possible) or a factor
  bool paused = false;  ///< lock-step: the loop runs as far as the console or the API steps it
  /// The RT setup of the loop thread at real-time speed: the rig's (`rt` block) unless
  /// given; `no_rt` a normal thread without memory locking whatever the speed.
  std::optional<rt::RtSpec> rt;
  bool no_rt = false;
  /// A peer beside the rig (`hilsim ecu --priority`): the rig's RT setup at this SCHED_FIFO
  /// priority, on no particular CPU; 0 a normal thread without memory locking.
  std::optional<int> peer_priority;
  /// The executive's settings: the rig's unless given (`hilsim timing`'s flags, `ecu`'s
  /// --period).
  std::optional<rt::ExecutiveSpec> executive;
  /// The loop is not closed: a replay; an overrun is never a reason to stop it.
  bool open_loop = false;
};

struct Recipe {
  RigFiles rig;  ///< ignored for RecordedSources (the run directory holds the rig)
  std::optional<LoadedRig> loaded;  ///< instead of `rig`'s files
  Sources sources = LiveSources{};
  Peer peer = Peer::builtin_ecu;
  std::optional<RecordSink> record;
  io::console::ConsoleSpec console{.enabled = false};
  ClockChoice clock;
  /// No rig: the executive alone with this much busy work each tick (`hilsim timing`).
  std::optional<rt::Nanoseconds> synthetic_load;
  /// Without a scenario, a straight drive at this speed [m/s] for the built-in ECU
  /// (`hilsim ecu --speed`).
  std::optional<double> straight_at;
  /// How long: "30s" (--duration); default the scenario's duration, else until stopped.
  std::optional<std::string> duration;
  bool quiet = false;   ///< no progress lines
  bool notify = false;  ///< systemd's Type=notify protocol (`hilsim run`)
  /// The run's id on the console: "" the run directory's name, else <rig>-<start epoch ns>.
  std::string run_id;
  // ---- tests (and the automation API later): hooks into the assembly ----
  /// More stages in the tick (e.g. a decimated one, to show that replay runs it alike).
  std::function<void(runtime::TickPlan&, runtime::Rig&)> extra_stages;
  /// The run's command queue (live sources), before the run starts.
  std::function<void(runtime::CommandQueue&)> with_commands;
};

}  // namespace hil::session
