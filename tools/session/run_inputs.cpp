#include "tools/session/run_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "config/rig/rig_locator.hpp"
#include "io/can/transport/replay_transport.hpp"
#include "io/record/mapped_file.hpp"
#include "models/vehicle/vehicle.hpp"
#include "runtime/fmu/fmu_log.hpp"
#include "runtime/sensors/lidar_log.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::session {

namespace {

/// Prints a log's malformed lines; false (and says so) unless `lenient` skips them.
bool bad_lines_allowed(const std::vector<std::string>& bad, const char* log, bool lenient) {
  if (bad.empty()) return true;
  for (const std::string& line : bad) fmt::print(stderr, "{}\n", line);
  if (!lenient) {
    fmt::print(stderr, "{} malformed line{} in {}; --lenient skips them\n", bad.size(),
               bad.size() == 1 ? "" : "s", log);
  }
  return lenient;
}

}  // namespace

bool RunBuilder::load_recorded(Run& run) const {
  const auto& r = std::get<RecordedSources>(recipe_.sources);
  const std::filesystem::path& dir = r.dir;
  if (!std::filesystem::is_directory(dir)) {
    fmt::print(stderr, "{}: not a run directory (to replay a log into a rig, add --rig NAME)\n",
               dir.string());
    return false;
  }
  run.recorded = read_run_record(dir);
  run.rig_name = run.recorded.rig;
  run.rig_file = dir / "rig.pbtxt";
  const std::vector<std::filesystem::path> overrides(r.overrides.begin(), r.overrides.end());
  // The run's scenario, if it had one: its events and start pose are part of the run
  config::ScenarioLoadResult loaded;
  if (const std::filesystem::path file = dir / "scenario.pbtxt"; std::filesystem::exists(file)) {
    loaded = config::load_scenario(file, run.rig_file, overrides);
    run.scenario_file = file;
  } else {
    config::LoadResult rig_only = config::load_rig_config(run.rig_file, overrides);
    loaded.rig = std::move(rig_only.settings);
    loaded.errors = std::move(rig_only.errors);
  }
  if (!loaded.errors.empty()) {
    print_config_errors(loaded.errors, run.rig_file.string());
    return false;
  }
  run.settings = std::move(*loaded.rig);
  run.scenario = std::move(loaded.scenario);
  if (run.settings.executive.period != run.recorded.period_ns) {
    fmt::print(stderr, "the override changes the period: a replay needs the recorded one\n");
    return false;
  }
  run.can_log = read_can_recording(dir / "can.log", run.recorded);
  if (!run.can_log.cut.empty()) fmt::print(stderr, "note: {}\n", run.can_log.cut);
  if (!run.can_log.bad_lines.empty()) {
    for (const std::string& bad : run.can_log.bad_lines) fmt::print(stderr, "{}\n", bad);
    const std::size_t n = run.can_log.bad_lines.size();
    if (!r.lenient) {
      fmt::print(stderr, "{} malformed line{} in can.log; --lenient skips them\n", n,
                 n == 1 ? "" : "s");
      return false;
    }
    fmt::print(stderr, "skipped {} malformed line{}\n", n, n == 1 ? "" : "s");
  }
  run.frames = std::make_unique<FrameChecker>(run.can_log, run.comparison);
  run.start_epoch_ns = run.recorded.start_epoch_ns;
  return true;
}

bool RunBuilder::load_external(Run& run) const {
  const auto& log = std::get<ExternalLog>(recipe_.sources);
  run.rig_name = config::rig_name(recipe_.rig.rig);
  run.rig_file = config::locate_rig(recipe_.rig.rig);
  config::LoadResult loaded = config::load_rig_config(run.rig_file);
  if (!loaded.ok()) {
    print_config_errors(loaded.errors, run.rig_file.string());
    return false;
  }
  run.settings = std::move(*loaded.settings);
  run.recorded = {.period_ns = run.settings.executive.period, .rig = run.rig_name};
  try {
    run.can_log = read_external_log(log.file, run.recorded.period_ns, log.lenient);
  } catch (const std::runtime_error& e) {  // the first bad line or object, or unreadable
    fmt::print(stderr, "{}\n{}: not replayed; --lenient skips malformed lines and objects\n",
               e.what(), log.file.string());
    return false;
  }
  for (const std::string& bad : run.can_log.bad_lines) fmt::print(stderr, "{} (skipped)\n", bad);
  if (run.can_log.frames == 0) {
    fmt::print(stderr, "{}: no frames to replay\n", log.file.string());
    return false;
  }
  return true;
}

bool replay_recorded_inputs(Run& run, const RecordedSources& recorded, runtime::TickPlan& plan) {
  const std::filesystem::path& dir = recorded.dir;
  // The co-simulators' snapshots from bus.log, at the ticks the run consumed them
  if (io::bus::BusExchange* bus = run.rig->bus()) {
    if (const std::filesystem::path path = dir / "bus.log"; std::filesystem::exists(path)) {
      const io::record::MappedFile text(path);
      run.bus_log = io::bus::parse_bus_log(
          {reinterpret_cast<const char*>(text.bytes().data()), text.bytes().size()});
    }
    if (!bad_lines_allowed(run.bus_log.bad_lines, "bus.log", recorded.lenient)) return false;
    run.bus_input = std::make_unique<io::bus::RecordedInput>(run.bus_log, bus->schema());
    bus->connect(nullptr, run.bus_input.get());
  }
  // FMUs on worker threads take their steps as the run did: late where fmu.log says (a run
  // with one always writes it)
  std::map<std::string, std::vector<runtime::FmuEvent>> fmu_events;
  if (const std::filesystem::path path = dir / "fmu.log"; std::filesystem::exists(path)) {
    try {
      fmu_events = runtime::read_fmu_log(path);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "{}\n", e.what());
      return false;
    }
  }
  for (const auto& f : run.rig->fmus()) {
    if (f->on_worker()) f->follow(std::move(fmu_events[f->instance()]));
  }
  // Lidars take their packet jobs as the run did: late or lost where lidar.log says
  std::map<std::string, std::vector<runtime::LidarEvent>> lidar_events;
  if (const std::filesystem::path path = dir / "lidar.log"; std::filesystem::exists(path)) {
    try {
      lidar_events = runtime::read_lidar_log(path);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "{}\n", e.what());
      return false;
    }
  }
  for (const auto& l : run.rig->lidars()) l->follow(std::move(lidar_events[l->spec().name]));
  // The run's commands (writes, faults) at the ticks it applied them
  if (const std::filesystem::path path = dir / "commands.log"; std::filesystem::exists(path)) {
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::set<std::string> without(recorded.without_faults.begin(),
                                        recorded.without_faults.end());
    try {
      run.recorded_commands = std::make_unique<runtime::RecordedCommands>(
          text, run.rig->table(), run.settings.can, *run.faults, without, run.rig->diag_tester());
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "{}: {}\n", dir.string(), e.what());
      return false;
    }
    plan.add(runtime::Slot::commands, "commands", *run.recorded_commands);
  }
  return true;
}

std::unique_ptr<io::can::Transport> external_transport(const CanRecording& log,
                                                       const config::RigSpec& rig, std::size_t bus,
                                                       const std::string& name) {
  std::vector<io::can::TickFrame> mine;
  if (const auto it = log.received.find(name); it != log.received.end()) {
    mine = it->second;
  } else if (bus == 0) {  // the frames of interfaces no bus is named after
    for (const auto& [iface, frames] : log.received) {
      const std::string& n = iface;  // a lambda cannot capture a structured binding (C++17)
      const bool is_bus = std::any_of(rig.can.begin(), rig.can.end(),
                                      [&](const io::can::CanBusSpec& b) { return b.name == n; });
      if (!is_bus) mine.insert(mine.end(), frames.begin(), frames.end());
    }
    std::stable_sort(mine.begin(), mine.end(),
                     [](const auto& a, const auto& b) { return a.tick < b.tick; });
  }
  return std::make_unique<io::can::ReplayTransport>("replay:" + name, std::move(mine), nullptr);
}

void follow_vehicle_math(runtime::Rig& rig, const std::string& recorded) {
  models::Vehicle* vehicle = rig.vehicle();
  if (vehicle == nullptr || recorded.empty()) return;  // no vehicle, or recorded before
  if (recorded == models::kPairsMath) vehicle->use_four_lanes(false);
  if (vehicle->model().math() != recorded) {
    fmt::print(stderr,
               "note: the run's vehicle ran its {} build, this CPU runs {}: values differ in "
               "their last bits (compare with --tolerance 1e-9; docs/recording.md)\n",
               recorded, vehicle->model().math());
  }
}

}  // namespace hil::session
