#pragma once
// A run as RunBuilder (run_builder.hpp) assembled it from its recipe: the rig as loaded, its
// scenario, the rig as it runs with every stage of its tick (vehicle, CAN, bus, FMUs, the
// scenario's events and judge, the built-in ECU, faults, commands, recording), the inputs
// it replays, and the loop that runs them (loop/harness.hpp). The commands read what they
// report from here; nothing here decides what a run is made of.
//
// Thread-safety: built and run from one thread; run() runs the loop on an RT thread and
// returns when it ended. The parts' own rules apply to their use from other threads.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/bus/bus_log.hpp"
#include "runtime/commands/command_queue.hpp"
#include "runtime/commands/recorded_commands.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/record/recording.hpp"
#include "runtime/rig.hpp"
#include "runtime/scenario/judge_stage.hpp"
#include "runtime/scenario/scenario_events.hpp"
#include "tools/ecu/virtual_ecu.hpp"
#include "tools/session/driver_session.hpp"
#include "tools/session/loop/harness.hpp"
#include "tools/session/recipe.hpp"
#include "tools/session/replay/replay_compare.hpp"
#include "tools/session/run/run_directory.hpp"

namespace hil::session {

struct Run {
  Run() = default;
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  /// Runs the loop until `max_ticks` ticks ran in all (negative: until stopped) on an RT
  /// thread (a normal one below real-time speed), watched from this one, then stop_jobs().
  RunOutcome run(std::int64_t max_ticks, const RunHooks& hooks = {});
  /// Runs on this thread until `ticks` ticks ran in all: a replay drives the loop in
  /// segments, as its recording says.
  rt::RunResult run_until(std::int64_t ticks) noexcept { return harness->run_until(ticks); }
  /// After the loop: the periodic jobs end (the logs' last drain is the recording's stop());
  /// the commands applied last go to commands.log and the console.
  void stop_jobs();
  /// The I/O thread, every 2 ms: applied commands to commands.log and the console (the
  /// driver's control writes to commands.log only), then the UDS tester's results to the
  /// console.
  void take_applied_commands() const;
  Recipe recipe;

  // ---- the rig and its scenario, as loaded ----
  std::string rig_name;  ///< the short name: "ravon"
  std::filesystem::path rig_file;
  config::RigSpec settings;  ///< the scenario's rig block applied
  std::optional<std::filesystem::path> scenario_file;
  std::optional<config::ScenarioSpec> scenario;
  std::string ecu_description;  ///< "virtual (in process)", the --can URI, or "none"
  bool builtin_ecu = false;     ///< the virtual ECU runs in process

  // ---- recorded inputs (RecordedSources, ExternalLog) ----
  RunRecord recorded;                    ///< a run directory's manifest (a log's: the rig's period)
  CanRecording can_log;                  ///< the frames it received (and sent, to compare)
  Comparison comparison;                 ///< what the recorded run's replay compared so far
  std::unique_ptr<FrameChecker> frames;  ///< the replayed transports' sends against can.log
  io::bus::BusLog bus_log;
  std::unique_ptr<io::bus::RecordedInput> bus_input;

  // ---- the rig as it runs, and its stages ----
  std::unique_ptr<runtime::Rig> rig;  ///< none for Peer::ecu_alone
  std::unique_ptr<ecu::VirtualEcu> ecu;
  std::unique_ptr<runtime::ScenarioEvents> events;
  std::unique_ptr<runtime::JudgeStage> judge;
  std::int64_t scenario_ticks = -1;  ///< the scenario's duration in ticks, −1 without one
  std::unique_ptr<runtime::FaultEngine> faults;
  std::unique_ptr<runtime::CommandQueue> commands;               ///< live sources
  std::unique_ptr<runtime::RecordedCommands> recorded_commands;  ///< RecordedSources
  /// A driver in the loop (live sources, a rig with a driver block): the page's and a
  /// joystick's controls as commands.
  std::unique_ptr<DriverSession> driver;

  // ---- the sink ----
  std::optional<std::filesystem::path> run_dir;
  std::string config_hash;  ///< of rig.pbtxt, its files and scenario.pbtxt
  std::int64_t start_epoch_ns = 0;
  std::unique_ptr<runtime::Recording> recording;
  std::string compression;  ///< of the telemetry: "zstd", "uncompressed", …

  // ---- the loop ----
  std::unique_ptr<rt::Stage> load;  ///< a synthetic load's (no rig)
  rt::ChannelTable no_channels;     ///< the console's table without a rig
  std::int64_t ticks_wanted = -1;   ///< --duration, else the scenario's, else −1 (until stopped)
  std::unique_ptr<Harness> harness;
  std::atomic<rt::LockStepClock*> gate{nullptr};  ///< a paused run's: the console steps it
};

}  // namespace hil::session
