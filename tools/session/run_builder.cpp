#include "tools/session/run_builder.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "config/rig/rig_locator.hpp"
#include "io/can/transport/replay_transport.hpp"
#include "io/record/mcap/chunk_compression.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/run_console.hpp"
#include "tools/session/run_inputs.hpp"

namespace hil::session {

namespace {

/// The scenario a run from files drives: the recipe's, else the rig's default_scenario.
std::optional<std::filesystem::path> scenario_file(const RigFiles& r, const config::RigSpec& rig,
                                                   const std::filesystem::path& rig_file) {
  if (!r.scenario.empty()) {
    return r.scenario == "none" ? std::nullopt : std::optional(config::locate_scenario(r.scenario));
  }
  if (rig.default_scenario.empty() || rig.default_scenario == "none") return std::nullopt;
  return config::locate_scenario(rig.default_scenario, rig_file);  // relative to the rig file
}

/// Whether the rig's tester reads the DTCs, when the rig file leaves it open
/// (config::DiagnosticsSpec::read_dtcs_every_s): with the built-in ECU answering, or a scenario
/// that gates on a DTC; a run directory's rig.pbtxt keeps the decision for its replay.
void decide_dtc_reads(Run& run) {
  if (!run.settings.diagnostics || run.settings.diagnostics->read_dtcs_every_s) return;
  const bool gated = run.scenario && std::ranges::any_of(run.scenario->gates, [](const auto& g) {
                       return std::holds_alternative<config::DtcGate>(g.check);
                     });
  run.settings.diagnostics->read_dtcs_every_s =
      run.builtin_ecu || gated ? config::kDefaultDtcReadPeriod : 0.0;
}

/// A transport that is not virtual: it has a peer that runs in real time.
std::optional<std::string> real_transport(const Recipe& r, const config::RigSpec& s) {
  if (const auto* live = std::get_if<LiveSources>(&r.sources); live && live->can_uri) {
    return *live->can_uri;
  }
  for (const io::can::CanBusSpec& bus : s.can) {
    if (!bus.uri.starts_with("virtual:")) return bus.uri;
  }
  return std::nullopt;
}

runtime::FaultTargets fault_targets(runtime::Rig& rig) {
  return {.table = rig.table(),
          .buses = rig.buses(),
          .bus_specs = rig.settings().can,
          .period = rig.settings().executive.period};
}

std::int64_t epoch_ns(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

namespace {

/// The synthetic load: busy-waits a fixed time every tick.
class SpinStage final : public rt::Stage {
 public:
  explicit SpinStage(rt::Nanoseconds cost) : cost_(cost) {}
  void run(const rt::TickContext& /*ctx*/) noexcept override { rt::spin_for(cost_); }

 private:
  rt::Nanoseconds cost_;
};

}  // namespace

std::unique_ptr<Run> RunBuilder::build() {
  auto run = std::make_unique<Run>();
  run->recipe = recipe_;
  run->start_epoch_ns = epoch_ns(std::chrono::system_clock::now());
  if (recipe_.synthetic_load) {  // no rig: the executive alone
    run->settings.executive = recipe_.clock.executive.value_or(rt::ExecutiveSpec{});
    run->rig_name = "synthetic load";
    run->load = std::make_unique<SpinStage>(*recipe_.synthetic_load);
    runtime::TickPlan plan;
    plan.add(runtime::Slot::models, "synthetic_load", *run->load);
    add_loop(*run, std::move(plan));
    return run;
  }
  const bool loaded = std::holds_alternative<RecordedSources>(recipe_.sources) ? load_recorded(*run)
                      : std::holds_alternative<ExternalLog>(recipe_.sources)   ? load_external(*run)
                                                                               : load_files(*run);
  if (!loaded || !choose_peer(*run)) return nullptr;
  decide_dtc_reads(*run);
  runtime::TickPlan plan;
  if (recipe_.peer == Peer::ecu_alone) {
    build_ecu_alone(*run);
    plan.add(runtime::Slot::peer_rx, "ecu_rx", run->ecu->receive_stage());
    plan.add(runtime::Slot::peer_update, "ecu", run->ecu->drive_stage(),
             static_cast<std::uint32_t>(run->ecu->cycle_ticks()));
    plan.add(runtime::Slot::peer_tx, "ecu_tx", run->ecu->send_stage());
  } else {
    build_rig(*run);
    run->rig->add_stages(plan);
    add_scenario(*run, plan);
    if (!add_inputs(*run, plan)) return nullptr;
    if (recipe_.extra_stages) recipe_.extra_stages(plan, *run->rig);
    add_sink(*run, plan);
  }
  add_loop(*run, std::move(plan));
  return run;
}

bool RunBuilder::load_files(Run& run) const {
  if (recipe_.loaded) {
    run.rig_name = recipe_.loaded->name;
    run.settings = recipe_.loaded->settings;
    run.scenario = recipe_.loaded->scenario;
    if (recipe_.clock.executive) run.settings.executive = *recipe_.clock.executive;
    return true;
  }
  const RigFiles& r = recipe_.rig;
  run.rig_name = config::rig_name(r.rig);
  run.rig_file = config::locate_rig(r.rig);
  const std::vector<std::filesystem::path> overlays(r.overlays.begin(), r.overlays.end());
  config::LoadResult loaded = config::load_rig_config(run.rig_file, overlays);
  if (!loaded.ok()) {
    print_config_errors(loaded.errors, run.rig_file.string());
    return false;
  }
  run.settings = std::move(*loaded.settings);
  print_config_warnings(run.settings);
  // The scenario: its rig block applied over the rig, its ECU, events and gates
  run.scenario_file = scenario_file(r, run.settings, run.rig_file);
  if (run.scenario_file) {
    config::ScenarioLoadResult sc =
        config::load_scenario(*run.scenario_file, run.rig_file, overlays);
    config::require_rig(sc, run.rig_name);
    if (!sc.ok()) {
      print_config_errors(sc.errors, run.scenario_file->string());
      return false;
    }
    run.settings = std::move(*sc.rig);
    run.scenario = std::move(*sc.scenario);
  } else if (recipe_.straight_at) {  // `hilsim ecu` without a scenario: straight ahead
    run.scenario = config::constant_speed_scenario(run.settings, *recipe_.straight_at, 86'400.0);
  }
  if (recipe_.clock.executive) run.settings.executive = *recipe_.clock.executive;
  return true;
}

bool RunBuilder::choose_peer(Run& run) const {
  const config::RigSpec& s = run.settings;
  const auto* live = std::get_if<LiveSources>(&recipe_.sources);
  const std::optional<std::string> can_uri = live != nullptr ? live->can_uri : std::nullopt;
  if (can_uri && s.can.empty()) {
    fmt::print(stderr, "--can {}: the rig {} has no CAN bus to connect it to\n", *can_uri,
               run.rig_file.string());
    return false;
  }
  if (!recipe_.clock.speed.realtime() && live != nullptr) {
    if (const std::optional<std::string> uri = real_transport(recipe_, s)) {
      fmt::print(stderr,
                 "--speed {}: the CAN transport {} has a peer that runs in real time; only a "
                 "rig on virtual: transports runs at another speed (--speed realtime)\n",
                 recipe_.clock.speed.to_string(), *uri);
      return false;
    }
  }
  if (recipe_.peer == Peer::ecu_alone) return true;
  // The built-in ECU drives a vehicle over the rig's first bus, along a scenario
  const bool wants_virtual = recipe_.peer == Peer::builtin_ecu && live != nullptr && !can_uri &&
                             s.vehicle && !s.can.empty();
  const bool no_scenario_wanted = recipe_.rig.scenario == "none" ||
                                  (recipe_.rig.scenario.empty() && s.default_scenario == "none");
  if (wants_virtual && !run.scenario && !no_scenario_wanted) {
    spdlog::warn(
        "no scenario (--scenario NAME): the built-in ECU needs one to drive, so it is "
        "off and the vehicle stays in its safe state");
  }
  run.builtin_ecu = wants_virtual && run.scenario.has_value();  // made once the rig is
  run.ecu_description = can_uri ? *can_uri : run.builtin_ecu ? "virtual (in process)" : "none";
  return true;
}

void RunBuilder::build_rig(Run& run) const {
  const config::RigSpec& s = run.settings;
  std::vector<config::FaultSpec> faults = s.faults;
  if (run.scenario)
    faults.insert(faults.end(), run.scenario->faults.begin(), run.scenario->faults.end());
  runtime::RigBuildSpec options{
      .extra_input_channels =
          run.scenario ? run.scenario->marker_channels : std::vector<std::string>{},
      // a fault left out keeps its channels (they stay 0): the run's channels, as recorded
      .extra_output_channels = runtime::FaultEngine::channels(faults),
      .bus_name = run.rig_name,
      .live_bus = std::holds_alternative<LiveSources>(recipe_.sources),
      .objects = run.scenario ? run.scenario->objects : std::vector<models::MovingObjectSpec>{},
      .send_lidar = std::holds_alternative<LiveSources>(recipe_.sources)};
  if (const auto* live = std::get_if<LiveSources>(&recipe_.sources)) {
    options.can_uri = live->can_uri;
  } else if (std::holds_alternative<RecordedSources>(recipe_.sources)) {
    options.transport_for_bus = [&run](std::size_t bus, const std::string& name) {
      return run.frames->transport(bus, name);
    };
  } else {
    options.transport_for_bus = [&run](std::size_t bus, const std::string& name) {
      return external_transport(run.can_log, run.settings, bus, name);
    };
  }
  run.rig = std::make_unique<runtime::Rig>(s, options);
  if (const auto* recorded = std::get_if<RecordedSources>(&recipe_.sources)) {
    follow_vehicle_math(*run.rig, run.recorded.vehicle_math);
    const std::set<std::string> without(recorded->without_faults.begin(),
                                        recorded->without_faults.end());
    std::erase_if(faults, [&](const config::FaultSpec& f) { return without.contains(f.name); });
  }
  const std::uint64_t seed = s.vehicle ? s.vehicle->seed : 1;
  run.faults =
      std::make_unique<runtime::FaultEngine>(std::move(faults), fault_targets(*run.rig), seed);
  // An FMU on a worker thread: a loop paced by real time never waits for it (fmu_stage.hpp)
  if (std::holds_alternative<LiveSources>(recipe_.sources)) {
    for (const auto& f : run.rig->fmus()) {
      f->set_realtime(recipe_.clock.speed.realtime() && !recipe_.clock.paused);
    }
    for (const auto& l : run.rig->lidars()) {  // the same for a lidar (lidar_stage.hpp)
      l->set_realtime(recipe_.clock.speed.realtime() && !recipe_.clock.paused);
    }
  }
}

void RunBuilder::build_ecu_alone(Run& run) const {
  if (!run.scenario) throw std::runtime_error("the built-in ECU needs a scenario to drive");
  const auto* live = std::get_if<LiveSources>(&recipe_.sources);
  run.ecu = std::make_unique<ecu::VirtualEcu>(
      run.settings, *run.scenario,
      ecu::VirtualEcuSpec{.can_uri = live != nullptr ? live->can_uri : std::nullopt,
                          .period_s = static_cast<double>(run.settings.executive.period) / 1e9,
                          .start_clock_on_input = true});
  run.ecu_description = live != nullptr && live->can_uri ? *live->can_uri : "none";
}

void RunBuilder::add_scenario(Run& run, runtime::TickPlan& plan) const {
  if (!run.scenario) return;
  const config::ScenarioSpec& s = *run.scenario;
  models::Vehicle* vehicle = run.rig->vehicle();
  if (vehicle == nullptr) throw std::runtime_error("a scenario needs a rig with a vehicle");
  vehicle->reset(s.start.x, s.start.y, s.start.yaw, s.start.speed);
  const rt::Nanoseconds period = run.settings.executive.period;
  run.scenario_ticks = std::llround(s.duration_s * 1e9 / static_cast<double>(period));
  if (run.builtin_ecu) {  // the ECU reads what the rig sent last tick, drives, and sends
    // in process, it reads the driver's channels (HUMAN mode) in the rig's table
    run.ecu = std::make_unique<ecu::VirtualEcu>(
        run.settings, s, ecu::VirtualEcuSpec{.rig_table = &run.rig->table()});
    plan.add(runtime::Slot::peer_rx, "ecu_rx", run.ecu->receive_stage());
    plan.add(runtime::Slot::peer_update, "ecu", run.ecu->drive_stage(),
             static_cast<std::uint32_t>(run.ecu->cycle_ticks()));
    plan.add(runtime::Slot::peer_tx, "ecu_tx", run.ecu->send_stage());
  }
  run.events = std::make_unique<runtime::ScenarioEvents>(s.events, run.rig->table(), period,
                                                         run.rig->diag_tester());
  plan.add(runtime::Slot::scenario_events, "scenario_events", *run.events);
  run.judge = std::make_unique<runtime::JudgeStage>(s, run.rig->table(), run.settings.diagnostics);
  plan.add(runtime::Slot::judge, "scenario_judge", *run.judge);
}

bool RunBuilder::add_inputs(Run& run, runtime::TickPlan& plan) const {
  run.faults->add_stages(plan, /*always=*/true);  // commands may add faults
  if (std::holds_alternative<LiveSources>(recipe_.sources)) {
    // Commands from outside the loop (the console, the API), applied at a tick
    run.commands = std::make_unique<runtime::CommandQueue>(run.rig->table(), run.settings.can,
                                                           *run.faults, run.rig->diag_tester());
    plan.add(runtime::Slot::commands, "commands", run.commands->stage());
    return add_driver(run);
  }
  if (const auto* recorded = std::get_if<RecordedSources>(&recipe_.sources)) {
    return replay_recorded_inputs(run, *recorded, plan);
  }
  return true;  // an external log: its frames are the rig's transports
}

bool RunBuilder::add_driver(Run& run) const {
  const auto& live = std::get<LiveSources>(recipe_.sources);
  if (!run.settings.driver) {
    if (!live.joystick) return true;
    fmt::print(stderr,
               "--joystick {}: the rig {} has no driver block to map the joystick's axes and "
               "buttons to channels (docs/console.md \"Driving\")\n",
               *live.joystick, run.rig_name);
    return false;
  }
  run.driver = std::make_unique<DriverSession>(
      *run.settings.driver, *run.commands,
      live.joystick ? std::optional<std::filesystem::path>(*live.joystick) : std::nullopt);
  return true;
}

void RunBuilder::add_sink(Run& run, runtime::TickPlan& plan) const {
  if (!recipe_.record) return;
  const RecordSink& r = *recipe_.record;
  const auto start =
      std::chrono::system_clock::time_point(std::chrono::nanoseconds(run.start_epoch_ns));
  run.run_dir = make_run_directory(r.dir, r.runs_dir, run.rig_name + r.name_suffix, start);
  std::string saved = save_rig(run.settings, *run.run_dir, *run.rig);
  if (run.scenario_file) saved += copy_scenario(*run.scenario_file, *run.run_dir);
  run.config_hash = config_hash(saved);
  config::RecordingSpec settings = run.settings.recording;
  if (r.split_size_mb)
    settings.split_bytes = static_cast<std::uint64_t>(*r.split_size_mb * 1048576.0);
  if (r.split_duration) {
    settings.split_duration_s = static_cast<double>(*rt::parse_duration(*r.split_duration)) * 1e-9;
  }
  run.recording = std::make_unique<runtime::Recording>(
      *run.rig,
      runtime::RunRecordingSpec{.dir = *run.run_dir,
                                .start_epoch_ns = run.start_epoch_ns,
                                .rig_name = run.rig_name,
                                .lossless = !recipe_.clock.speed.realtime() ||
                                            !std::holds_alternative<LiveSources>(recipe_.sources),
                                .settings = settings,
                                .scenario = run.scenario ? &*run.scenario : nullptr});
  run.compression = io::record::mcap_name(settings.compression);
  if (run.compression.empty()) run.compression = "uncompressed";
  plan.add(runtime::Slot::record, "record", *run.recording);
  run.faults->set_event_sink(&run.recording->telemetry());
  if (run.commands) run.commands->set_log(*run.run_dir / "commands.log");
}

void RunBuilder::add_loop(Run& run, runtime::TickPlan plan) const {
  const ClockChoice& clock = recipe_.clock;
  run.ticks_wanted = run.scenario_ticks;
  if (recipe_.duration) {
    run.ticks_wanted = std::max<std::int64_t>(
        1, *rt::parse_duration(*recipe_.duration) / run.settings.executive.period);
  }
  rt::RtSpec rt_options = clock.rt.value_or(run.settings.rt);
  if (clock.peer_priority) {
    rt_options.priority = *clock.peer_priority;
    rt_options.cpu.reset();
    rt_options.hold_dma_latency = *clock.peer_priority > 0;
    rt_options.lock_memory = rt_options.lock_memory && *clock.peer_priority > 0;
  }
  if (clock.no_rt) rt_options = {.priority = 0, .lock_memory = false, .hold_dma_latency = false};
  HarnessSpec options{.rt = rt_options,
                      .speed = clock.speed,
                      .quiet = recipe_.quiet,
                      .notify = recipe_.notify,
                      .open_loop = clock.open_loop,
                      .name = recipe_.peer == Peer::ecu_alone
                                  ? fmt::format("ecu {}", recipe_.rig.rig)
                                  : fmt::format("rig {}", run.rig_name),
                      .console = recipe_.console,
                      .paused = clock.paused};
  if (run.rig && recipe_.console.enabled) {
    options.console_feed = console_feed_of(run);
  } else if (recipe_.console.enabled) {  // the timing only: an empty channel table
    run.no_channels.freeze();
    options.console_feed.table = &run.no_channels;
    options.console_feed.run = {.rig = run.rig_name,
                                .run_id = recipe_.run_id,
                                .speed = "realtime",
                                .period_ns = run.settings.executive.period};
  }
  run.harness =
      std::make_unique<Harness>(run.settings.executive, std::move(plan), std::move(options));
  run.gate.store(run.harness->lock_step());
  // The run's periodic non-RT work on one I/O thread (loop/io_jobs.hpp)
  if (run.recording) {  // the text logs drained into their files
    run.harness->jobs().every(std::chrono::milliseconds(20),
                              [recording = run.recording.get()] { recording->service(); });
  }
  if (run.driver) {  // the driver's controls into the command queue, ≤ 50 Hz per channel
    run.harness->jobs().every(std::chrono::milliseconds(20),
                              [driver = run.driver.get()] { driver->pump(); });
  }
  if (run.commands) {  // applied commands to commands.log and the console: an ack's latency
    run.harness->jobs().every(std::chrono::milliseconds(2),
                              [&run] { run.take_applied_commands(); });
  }
}

}  // namespace hil::session
