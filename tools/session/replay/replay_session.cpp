#include "tools/session/replay/replay_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "io/record/telemetry_reader.hpp"
#include "tools/session/loop/harness.hpp"
#include "tools/session/replay/replay_compare.hpp"
#include "tools/session/replay/telemetry_prefetch.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::session {

namespace {

/// Runs the loop through tick `tick` (no further than `limit`).
void run_through(Harness& harness, std::int64_t tick, std::int64_t limit) {
  const std::int64_t last = std::min(tick, limit);
  if (last >= harness.executive().ticks_run()) (void)harness.run_until(last + 1);
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

Recipe replay_recipe(const ReplaySpec& o) {
  Recipe r{.sources = RecordedSources{.dir = o.source,
                                      .overrides = o.overrides,
                                      .without_faults = o.without_faults,
                                      .lenient = o.lenient},
           .peer = Peer::none,
           .console = o.console,
           .clock = {.speed = o.speed, .open_loop = true},
           .quiet = o.quiet,
           .run_id = std::filesystem::path(o.source).filename().string() + "-replay",
           .extra_stages = o.extra_stages};
  if (o.rig) {  // a log from elsewhere into a rig
    r.rig = {.rig = *o.rig, .scenario = "none"};
    r.sources = ExternalLog{.file = o.source, .lenient = o.lenient};
    r.record = RecordSink{
        .dir = o.record_dir ? std::optional<std::filesystem::path>(*o.record_dir) : std::nullopt,
        .name_suffix = "-replay"};
    r.run_id.clear();
  }
  return r;
}

int replay(const ReplaySpec& o) {
  if (o.rig) return replay_external_log(o);
  const std::unique_ptr<Run> run = RunBuilder(replay_recipe(o)).build();
  if (!run) return 2;
  const RunRecord& recorded = run->recorded;
  const CanRecording& log = run->can_log;
  const std::filesystem::path dir(o.source);
  Comparison& result = run->comparison;
  result.tolerance = o.tolerance;
  result.ignore = o.ignore;
  std::int64_t limit = o.until ? *rt::parse_duration(*o.until) / recorded.period_ns
                               : std::numeric_limits<std::int64_t>::max();
  if (!recorded.completed) {  // killed: compare the prefix both files hold (each to its last flush)
    limit = std::min(limit, std::min(log.last_tick, last_sample_tick(dir / "telemetry.mcap")));
  } else if (!recorded.recording_complete || !log.cut.empty()) {
    // the recording stopped early (disk full): the inputs end with can.log (its last tick may
    // hold only some of its frames); telemetry samples are compared as far as they go
    limit = std::min(limit, log.last_tick - 1);
  }
  Harness& harness = *run->harness;
  const auto wall_start = std::chrono::steady_clock::now();
  SampleGatherer samples(harness, run->rig->table(), limit);
  SampleComparer comparer(run->rig->table());
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
  run->frames->finish(harness.executive().ticks_run() - 1);
  harness.finish("replayed");
  result.ticks = harness.executive().ticks_run();
  result.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.truncated = read.mcap.end == io::record::McapEnd::truncated || !recorded.completed;

  const std::string text = describe(result, recorded.period_ns);
  fmt::print("{}", text);
  if (o.report) {
    std::ofstream out(*o.report);
    out << to_json(result, recorded.period_ns).dump(2) << "\n";
  }
  return result.within_tolerance() ? 0 : 1;
}

}  // namespace hil::session
