// Long runs (docs/recording.md): split files that read back as one, the free-space watermark
// that stops telemetry complete and says where, a full disk or an I/O error that stops it
// without losing what was written, per-group rates.

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>

#include "io/record/mapped_file.hpp"
#include "io/record/telemetry_reader.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/io/record/spec_mcap_reader.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::record {
namespace {

using config::testing::TempDir;
namespace mcap_spec = hil::testing::mcap_spec;

/// Ticks per topic, in the order read.
struct PerTopic final : TelemetryVisitor {
  void on_topic(std::size_t topic, const TelemetryLayout& layout) override {
    names[topic] = layout.topic();
  }
  void on_sample(std::size_t topic, std::uint64_t /*t*/, const TelemetrySample& s) override {
    ticks[names.at(topic)].push_back(s.tick);
  }
  std::map<std::size_t, std::string> names;
  std::map<std::string, std::vector<std::int64_t>> ticks;
};

TEST(Endurance, SplitFilesAreEachCompleteAndTogetherTheWholeRecording) {
  TempDir dir;
  const testing::VehicleTable table;
  {
    TelemetryRecorder rec(table, dir.path() / "telemetry.mcap",
                          {.tick_period_ns = 1'000'000, .chunk_bytes = 4096, .split_ticks = 300});
    (void)testing::push_ticks(rec, 1000, table.size());
    rec.stop();
    EXPECT_EQ(rec.counters().files, 4U);
    EXPECT_EQ(rec.error(), "");
  }
  const std::vector<std::filesystem::path> parts = telemetry_parts(dir.path() / "telemetry.mcap");
  ASSERT_EQ(parts.size(), 4U);
  EXPECT_EQ(parts[1].filename(), "telemetry.1.mcap");
  std::size_t messages = 0;
  for (const auto& p : parts) {  // each readable on its own, by the spec
    const auto file = mcap_spec::read(mcap_spec::load(p));
    EXPECT_TRUE(file.violations.empty()) << p << ::testing::PrintToString(file.violations);
    EXPECT_TRUE(file.complete) << p;
    messages += file.messages.size();
  }
  PerTopic all;
  const TelemetryReadReport r = read_telemetry_files(parts, all);
  EXPECT_EQ(r.mcap.end, McapEnd::complete);
  EXPECT_EQ(r.mcap.messages, messages);
  const std::vector<std::int64_t>& wheel = all.ticks.at("/vehicle/wheel/fl");
  ASSERT_EQ(wheel.size(), 1000U) << "one topic across the files, every tick once";
  for (std::size_t i = 0; i < wheel.size(); ++i) ASSERT_EQ(wheel[i], static_cast<std::int64_t>(i));
  PerTopic first;
  (void)read_telemetry_files({parts[0]}, first);
  EXPECT_EQ(all.names.size(), first.names.size()) << "topics numbered once across the parts";
}

TEST(Endurance, SplitBySizeStartsANewFileOnceTheLimitIsPassed) {
  TempDir dir;
  const testing::VehicleTable table;
  TelemetryRecorder rec(table, dir.path() / "telemetry.mcap",
                        {.tick_period_ns = 1'000'000,
                         .chunk_bytes = 4096,
                         .compression = Compression::none,
                         .split_bytes = 64 * 1024});
  (void)testing::push_ticks(rec, 3000, table.size());
  rec.stop();
  const auto parts = telemetry_parts(dir.path() / "telemetry.mcap");
  EXPECT_GE(parts.size(), 3U);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    EXPECT_LT(std::filesystem::file_size(parts[i]), 64U * 1024 + 8 * 1024) << parts[i];
  }
  PerTopic all;
  (void)read_telemetry_files(parts, all);
  EXPECT_EQ(all.ticks.at("/vehicle/battery").size(), 3000U);
}

TEST(Endurance, TheWatermarkStopsTelemetryCompleteAndSaysAtWhichTick) {
  TempDir dir;
  const testing::VehicleTable table;
  std::atomic<std::uint64_t> free{100U << 20};
  {
    TelemetryRecorder rec(table, dir.path() / "telemetry.mcap",
                          {.tick_period_ns = 1'000'000,
                           .flush_interval = std::chrono::milliseconds(5),
                           .chunk_bytes = 4096,
                           .min_free_bytes = 10U << 20,
                           .free_bytes = [&free] { return std::optional(free.load()); }});
    (void)testing::push_ticks(rec, 500, table.size());
    while (rec.counters().samples_recorded < 500) std::this_thread::yield();
    free = 5U << 20;  // the disk fills: the next flush (or 1.25 MB written) sees it
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    (void)testing::push_ticks(rec, 1500, table.size());
    rec.stop();
    const RecorderCounters c = rec.counters();
    EXPECT_EQ(c.stopped_at_tick, 500);
    EXPECT_EQ(c.samples_recorded, static_cast<std::uint64_t>(c.stopped_at_tick));
    EXPECT_NE(rec.error().find("recording stopped: disk full at tick " +
                               std::to_string(c.stopped_at_tick)),
              std::string::npos)
        << rec.error();
  }
  const auto file = mcap_spec::read(mcap_spec::load(dir.path() / "telemetry.mcap"));
  EXPECT_TRUE(file.complete) << "closed with its summary: readable by any MCAP reader";
  EXPECT_TRUE(file.violations.empty()) << ::testing::PrintToString(file.violations);
}

TEST(Endurance, AFullDiskStopsTheRecordingAsDiskFullAndAnIoErrorAsItself) {
  const testing::VehicleTable table;
  for (const int error : {ENOSPC, EIO}) {
    TelemetryRecorder rec(table, std::make_unique<testing::FullDiskSink>(32 * 1024, error),
                          {.tick_period_ns = 1'000'000, .chunk_bytes = 1024});
    const testing::Pushed pushed = testing::push_ticks(rec, 3000, table.size());
    rec.stop();
    const RecorderCounters c = rec.counters();
    EXPECT_EQ(c.samples_recorded + c.samples_dropped, pushed.queued + pushed.ring_full);
    EXPECT_GT(c.samples_dropped, 0U);
    if (error == ENOSPC) {
      EXPECT_NE(rec.error().find("recording stopped: disk full at tick"), std::string::npos)
          << rec.error();
      EXPECT_GE(c.stopped_at_tick, 0);
    } else {
      EXPECT_NE(rec.error().find("Input/output error"), std::string::npos) << rec.error();
    }
  }
}

TEST(Endurance, EachGroupAtItsOwnRate) {
  TempDir dir;
  const testing::VehicleTable table;
  {
    TelemetryRecorder rec(table, dir.path() / "telemetry.mcap",
                          {.tick_period_ns = 250'000,
                           .max_rate_hz = 100.0,
                           .group_rates_hz = {{"vehicle.wheel.*", 4000.0}}});
    EXPECT_EQ(rec.decimation(), 1U) << "the ring carries every tick the fastest group takes";
    (void)testing::push_ticks(rec, 4000, table.size());
  }
  PerTopic all;
  (void)read_telemetry_files({dir.path() / "telemetry.mcap"}, all);
  EXPECT_EQ(all.ticks.at("/vehicle/wheel/fl").size(), 4000U);
  const std::vector<std::int64_t>& battery = all.ticks.at("/vehicle/battery");
  ASSERT_EQ(battery.size(), 100U);
  EXPECT_EQ(battery[1], 40);  // 100 Hz of 4 kHz ticks
}

}  // namespace
}  // namespace hil::io::record
