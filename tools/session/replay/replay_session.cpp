#include "tools/session/replay/replay_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "config/rig_locator.hpp"
#include "config/scenario/scenario_settings.hpp"
#include "io/bus/bus_log.hpp"
#include "io/can/trace/candump_frame.hpp"
#include "io/can/trace/candump_reader.hpp"
#include "io/can/transport/replay_transport.hpp"
#include "io/record/mapped_file.hpp"
#include "io/record/telemetry_reader.hpp"
#include "models/vehicle/vehicle.hpp"
#include "runtime/commands/recorded_commands.hpp"
#include "runtime/fmu/fmu_log.hpp"
#include "runtime/rig.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/console_feed.hpp"
#include "tools/session/harness.hpp"
#include "tools/session/replay/replay_compare.hpp"
#include "tools/session/replay/telemetry_prefetch.hpp"
#include "tools/session/rig_setup.hpp"
#include "tools/session/scenario_run.hpp"

namespace hil::session {

namespace {

/// Runs the loop through tick `tick` (no further than `limit`).
void run_through(Harness& harness, std::int64_t tick, std::int64_t limit) {
  const std::int64_t last = std::min(tick, limit);
  if (last >= harness.executive().ticks_run()) (void)harness.run_until(last + 1);
}

/// The vehicle's arithmetic as its run had it (manifest "vehicle_math"): by pairs if the run
/// ran by pairs; where the run ran the four-lane build and this CPU cannot, says that the values
/// will differ in their last bits (docs/recording.md).
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

/// The loop's side of the comparison, on this thread: runs the loop through each recorded
/// sample's tick and answers the sample with the replayed values of its columns. The reading
/// thread compares them (SampleComparer), so that the loop's core never reads the recorded
/// values (docs/performance.md, round 5).
class SampleGatherer {
 public:
  SampleGatherer(Harness& harness, const rt::ChannelTable& table, std::int64_t limit)
      : harness_(harness), table_(table), limit_(limit) {}
  /// A recorded topic: its columns' channels, before its samples.
  void add_topic(std::size_t topic, const std::vector<std::string>& channels) {
    if (ids_.size() <= topic) ids_.resize(topic + 1);
    for (const std::string& channel : channels) ids_[topic].push_back(table_.find(channel));
  }
  /// Runs the loop through the sample's tick and answers it (NaN: not in this rig).
  void answer(TelemetryItem& item) {
    const io::record::TelemetrySample& s = item.sample;
    if (s.tick > limit_ || item.topic >= ids_.size()) return;
    run_through(harness_, s.tick, limit_);
    if (s.tick != last_tick) samples_compared += 1;  // one sample: a tick's groups
    last_tick = std::max(last_tick, s.tick);
    const std::vector<std::optional<rt::ChannelId>>& ids = ids_[item.topic];
    item.replayed.resize(std::min(s.values.size(), ids.size()));  // the reader made room
    for (std::size_t i = 0; i < item.replayed.size(); ++i) {
      item.replayed[i] = ids[i] ? table_.get(*ids[i]) : std::nan("");
    }
    item.answered = true;
  }
  std::int64_t last_tick = -1;
  std::uint64_t samples_compared = 0;

 private:
  Harness& harness_;
  const rt::ChannelTable& table_;
  std::int64_t limit_;
  std::vector<std::vector<std::optional<rt::ChannelId>>> ids_;  ///< per topic, per column
};

/// The reading thread's side: compares each answered sample, bit for bit, with the recorded
/// one, in file order. Thread-safety: one thread at a time (TelemetryPrefetch's hook).
class SampleComparer {
 public:
  explicit SampleComparer(const rt::ChannelTable& table) : table_(table) {}
  void operator()(const TelemetryItem& item) {
    if (item.is_topic) return add_topic(item.topic, item.channels);
    if (!item.answered || item.topic >= topics_.size()) return;
    const io::record::TelemetrySample& s = item.sample;
    const Topic& t = topics_[item.topic];
    const std::size_t n = std::min(item.replayed.size(), t.names.size());
    values_compared_ += n;
    for (std::size_t i = 0; i < n; ++i) {
      const double got = item.replayed[i];
      if (deviations_.add(t.first_column + i, s.tick, s.values[i], got)) {
        values_differing_ += 1;
        if (first_ && first_->tick <= s.tick) continue;  // formatting is dear
        const std::string& name = t.names[i];
        first_ = Divergence{
            .tick = s.tick,
            .what = t.in_rig[i] ? "channel " + name : "channel " + name + " (not in this rig)",
            .expected = fmt::format("{}", s.values[i]),
            .got = fmt::format("{}", got)};
      }
    }
  }
  /// Adds the counts, the first difference and the channels that differ (largest relative
  /// deviation first) to `result`.
  void add_to(Comparison& result) const {
    result.values_compared += values_compared_;
    result.values_differing += values_differing_;
    if (first_) result.note(*first_);
    result.deviations = deviations_.result(result.ignore);
  }

 private:
  /// A topic's columns: what a sample's check reads densely, the names apart.
  struct Topic {
    std::size_t first_column = 0;  ///< over all topics: the deviation tracker's column of the first
    std::vector<std::string> names;
    std::vector<bool> in_rig;  ///< false: the channel is not in this rig
  };
  void add_topic(std::size_t topic, const std::vector<std::string>& channels) {
    if (topics_.size() <= topic) topics_.resize(topic + 1);
    Topic& t = topics_[topic];
    for (const std::string& channel : channels) {
      const std::size_t column = deviations_.add_column(channel);  // consecutive indices
      if (t.names.empty()) t.first_column = column;
      t.names.push_back(channel);
      t.in_rig.push_back(table_.find(channel).has_value());
    }
  }
  const rt::ChannelTable& table_;  // names only (find() reads no value)
  std::vector<Topic> topics_;
  DeviationTracker deviations_;
  std::uint64_t values_compared_ = 0, values_differing_ = 0;
  std::optional<Divergence> first_;
};

}  // namespace

int replay(const ReplayOptions& o) {
  const std::filesystem::path dir(o.source);
  if (o.rig) return replay_external_log(o);
  if (!std::filesystem::is_directory(dir)) {
    fmt::print(stderr, "{}: not a run directory (to replay a log into a rig, add --rig NAME)\n",
               o.source);
    return 2;
  }
  const RunRecord run = read_run_record(dir);
  const std::vector<std::filesystem::path> overrides(o.overrides.begin(), o.overrides.end());
  // The run's scenario, if it had one: its events and start pose are part of the run
  const std::filesystem::path scenario_file = dir / "scenario.pbtxt";
  config::ScenarioLoadResult loaded;
  if (std::filesystem::exists(scenario_file)) {
    loaded = config::load_scenario(scenario_file, dir / "rig.pbtxt", overrides);
  } else {
    config::LoadResult rig_only = config::load_rig_config(dir / "rig.pbtxt", overrides);
    loaded.rig = std::move(rig_only.settings);
    loaded.errors = std::move(rig_only.errors);
  }
  if (!loaded.errors.empty()) {
    print_config_errors(loaded.errors, (dir / "rig.pbtxt").string());
    return 2;
  }
  const config::RigSettings& settings = *loaded.rig;
  if (settings.executive.period != run.period_ns) {
    fmt::print(stderr, "the override changes the period: a replay needs the recorded one\n");
    return 2;
  }
  const CanRecording log = read_can_recording(dir / "can.log", run);
  if (!log.cut.empty()) fmt::print(stderr, "note: {}\n", log.cut);
  if (!log.bad_lines.empty()) {
    for (const std::string& bad : log.bad_lines) fmt::print(stderr, "{}\n", bad);
    if (!o.lenient) {
      fmt::print(stderr, "{} malformed line{} in can.log; --lenient skips them\n",
                 log.bad_lines.size(), log.bad_lines.size() == 1 ? "" : "s");
      return 2;
    }
    fmt::print(stderr, "skipped {} malformed line{}\n", log.bad_lines.size(),
               log.bad_lines.size() == 1 ? "" : "s");
  }
  Comparison result;
  result.tolerance = o.tolerance;
  result.ignore = o.ignore;
  FrameChecker frames(log, result);
  std::vector<config::FaultSettings> fault_settings = run_faults(settings, loaded.scenario);
  // a fault left out keeps its channels (they stay 0): the run's channels, compared as recorded
  const std::vector<rt::ChannelSpec> fault_channels =
      runtime::FaultEngine::channels(fault_settings);
  const std::set<std::string> without(o.without_faults.begin(), o.without_faults.end());
  std::erase_if(fault_settings,
                [&](const config::FaultSettings& f) { return without.contains(f.name); });
  runtime::Rig rig(
      settings,
      {.extra_input_channels =
           loaded.scenario ? loaded.scenario->marker_channels : std::vector<std::string>{},
       .extra_output_channels = fault_channels,
       .transport_for_bus = [&](std::size_t bus,
                                const std::string& name) { return frames.transport(bus, name); },
       .live_bus = false});
  follow_vehicle_math(rig, run.vehicle_math);
  // The co-simulators' snapshots from bus.log, at the ticks the run consumed them
  io::bus::BusLog bus_log;
  std::unique_ptr<io::bus::RecordedInput> bus_input;
  if (io::bus::BusExchange* task = rig.bus()) {
    const std::filesystem::path path = dir / "bus.log";
    if (std::filesystem::exists(path)) {
      io::record::MappedFile text(path);
      bus_log = io::bus::parse_bus_log(
          {reinterpret_cast<const char*>(text.bytes().data()), text.bytes().size()});
    }
    if (!bus_log.bad_lines.empty()) {
      for (const std::string& bad : bus_log.bad_lines) fmt::print(stderr, "{}\n", bad);
      if (!o.lenient) {
        fmt::print(stderr, "{} malformed line{} in bus.log; --lenient skips them\n",
                   bus_log.bad_lines.size(), bus_log.bad_lines.size() == 1 ? "" : "s");
        return 2;
      }
    }
    bus_input = std::make_unique<io::bus::RecordedInput>(bus_log, task->schema());
    task->connect(nullptr, bus_input.get());
  }
  // FMUs on worker threads take their steps as the run did: late where fmu.log says (a run
  // with one always writes it)
  std::map<std::string, std::vector<runtime::FmuEvent>> fmu_events;
  if (const std::filesystem::path path = dir / "fmu.log"; std::filesystem::exists(path)) {
    try {
      fmu_events = runtime::read_fmu_log(path);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "{}\n", e.what());
      return 2;
    }
  }
  for (const auto& f : rig.fmus()) {
    if (f->on_worker()) f->follow(std::move(fmu_events[f->instance()]));
  }
  // Events and start pose as in the run; the ECU's frames come from can.log
  std::unique_ptr<session::ScenarioRun> scenario;
  if (loaded.scenario) {
    scenario = std::make_unique<session::ScenarioRun>(
        rig, *loaded.scenario, session::ScenarioRunOptions{.virtual_ecu = false});
  }
  std::int64_t limit = o.until ? *rt::parse_duration(*o.until) / run.period_ns
                               : std::numeric_limits<std::int64_t>::max();
  if (!run.completed) {  // killed: compare the prefix both files hold (each to its last flush)
    limit = std::min(limit, std::min(log.last_tick, last_sample_tick(dir / "telemetry.mcap")));
  } else if (!run.recording_complete || !log.cut.empty()) {
    // the recording stopped early (disk full): the inputs end with can.log (its last tick may
    // hold only some of its frames); telemetry samples are compared as far as they go
    limit = std::min(limit, log.last_tick - 1);
  }
  // The rig's real tick on the real executive, as in the run (decimations and offsets
  // included), open loop: an overrun of a paced replay is never a reason to stop
  runtime::TickPlan plan;
  if (scenario) {
    scenario->add_stages(plan);
  } else {
    rig.add_stages(plan);
  }
  // The faults as in the run: the frames it sent were faulted, so must the replay's be
  runtime::FaultEngine fault_engine(std::move(fault_settings), fault_targets(rig),
                                    run_seed(settings));
  fault_engine.add_stages(plan, /*always=*/true);
  // The run's commands (writes, faults) at the ticks it applied them
  std::unique_ptr<runtime::RecordedCommands> recorded_commands;
  if (const std::filesystem::path path = dir / "commands.log"; std::filesystem::exists(path)) {
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      recorded_commands = std::make_unique<runtime::RecordedCommands>(
          text, rig.table(), settings.can, fault_engine, without);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "{}: {}\n", dir.string(), e.what());
      return 2;
    }
    plan.add(runtime::Slot::commands, "commands", *recorded_commands);
  }
  if (o.extra_tasks) o.extra_tasks(plan, rig);
  Harness harness(settings.executive, std::move(plan),
                  {.speed = o.speed,
                   .quiet = o.quiet,
                   .open_loop = true,
                   .console = o.console,
                   .console_feed = console_feed(
                       rig, {.rig = run.rig,
                             .run_id = dir.filename().string() + "-replay",
                             .speed = o.speed,
                             .start_epoch_ns = run.start_epoch_ns,
                             .scenario = loaded.scenario ? &*loaded.scenario : nullptr})});

  const auto wall_start = std::chrono::steady_clock::now();
  SampleGatherer samples(harness, rig.table(), limit);
  SampleComparer comparer(rig.table());
  // Decoded and compared on a thread of its own while the loop runs here
  TelemetryPrefetch telemetry(io::record::telemetry_parts(dir / "telemetry.mcap"),
                              [&comparer](const TelemetryItem& item) { comparer(item); });
  while (TelemetryItem* item = telemetry.next()) {
    if (item->is_topic) {
      samples.add_topic(item->topic, item->channels);
    } else {
      samples.answer(*item);
    }
  }
  const io::record::TelemetryReadReport read = telemetry.finish();
  result.samples_compared = samples.samples_compared;
  comparer.add_to(result);
  run_through(harness, std::max(log.last_tick, samples.last_tick), limit);
  frames.finish(harness.executive().ticks_run() - 1);
  harness.finish("replayed");
  result.ticks = harness.executive().ticks_run();
  result.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.truncated = read.mcap.end == io::record::McapEnd::truncated || !run.completed;

  const std::string text = describe(result, run.period_ns);
  fmt::print("{}", text);
  if (o.report) {
    std::ofstream out(*o.report);
    out << to_json(result, run.period_ns).dump(2) << "\n";
  }
  return result.within_tolerance() ? 0 : 1;
}

}  // namespace hil::session
