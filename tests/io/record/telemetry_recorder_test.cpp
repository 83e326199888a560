// The recorder as `hilsim run` uses it: decimation, drops when the disk is slow, write
// errors, periodic flushes.

#include <gtest/gtest.h>

#include <future>

#include "io/record/mapped_file.hpp"
#include "io/record/telemetry_reader.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::record {
namespace {

using config::testing::TempDir;

/// The ticks recorded on /vehicle/wheel/fl, and their log times.
struct Ticks {
  std::vector<std::int64_t> ticks;
  std::vector<std::uint64_t> log_times;
};

struct TickCollector final : TelemetryVisitor {
  void on_topic(std::size_t topic, const TelemetryLayout& layout) override {
    if (layout.topic() == "/vehicle/wheel/fl") wheel = topic;
  }
  void on_sample(std::size_t topic, std::uint64_t log_time, const TelemetrySample& s) override {
    if (topic != wheel) return;
    ticks.push_back(s.tick);
    log_times.push_back(log_time);
  }
  std::size_t wheel = SIZE_MAX;
  std::vector<std::int64_t> ticks;
  std::vector<std::uint64_t> log_times;
};

Ticks recorded_ticks(const std::filesystem::path& path) {
  const MappedFile file(path);
  TickCollector t;
  const auto report = read_telemetry(file.bytes(), t);
  EXPECT_EQ(report.mcap.end, McapEnd::complete) << report.mcap.problem;
  return {t.ticks, t.log_times};
}

TEST(TelemetryRecorder, DecimationIsTheCeilingOfTickRateOverMaxRate) {
  EXPECT_EQ(TelemetryRecorder::decimation_for(250'000, 1000.0), 4U);    // 4 kHz
  EXPECT_EQ(TelemetryRecorder::decimation_for(1'000'000, 1000.0), 1U);  // 1 kHz
  EXPECT_EQ(TelemetryRecorder::decimation_for(2'000'000, 1000.0), 1U);  // 500 Hz
  EXPECT_EQ(TelemetryRecorder::decimation_for(333'333, 1000.0), 4U);    // 3000.003 Hz
  EXPECT_EQ(TelemetryRecorder::decimation_for(100'000, 1000.0), 10U);   // 10 kHz
  EXPECT_EQ(TelemetryRecorder::decimation_for(250'000, 300.0), 14U);    // 4000/300 = 13.3
}

TEST(TelemetryRecorder, FourKilohertzTicksAreRecordedAtOneKilohertz) {
  TempDir dir;
  const testing::VehicleTable table;
  const std::uint64_t start = 1'000'000'000;
  {
    TelemetryRecorder rec(table, dir.path() / "t.mcap",
                          {.tick_period_ns = 250'000, .start_time_ns = start});
    EXPECT_EQ(rec.decimation(), 4U);
    const testing::Pushed pushed = testing::push_ticks(rec, 4000, table.size());
    EXPECT_EQ(pushed.queued, 1000U);
    rec.stop();
    EXPECT_EQ(rec.counters().samples_recorded, 1000U);
    EXPECT_EQ(rec.counters().samples_dropped, 0U + pushed.ring_full);
  }
  const Ticks t = recorded_ticks(dir.path() / "t.mcap");
  ASSERT_EQ(t.ticks.size(), 1000U);
  for (std::size_t i = 0; i < t.ticks.size(); ++i) {
    ASSERT_EQ(t.ticks[i], static_cast<std::int64_t>(4 * i));
    ASSERT_EQ(t.log_times[i], start + 4 * i * 250'000);  // 1 ms apart: exactly tick·dt
  }
}

TEST(TelemetryRecorder, FiveHundredHertzTicksAreAllRecorded) {
  TempDir dir;
  const testing::VehicleTable table;
  {
    TelemetryRecorder rec(table, dir.path() / "t.mcap", {.tick_period_ns = 2'000'000});
    EXPECT_EQ(rec.decimation(), 1U);
    EXPECT_EQ(testing::push_ticks(rec, 500, table.size()).queued, 500U);
  }  // the destructor stops and closes
  const Ticks t = recorded_ticks(dir.path() / "t.mcap");
  ASSERT_EQ(t.ticks.size(), 500U);
  EXPECT_EQ(t.ticks.back(), 499);
  EXPECT_EQ(t.log_times.back(), 499U * 2'000'000);
}

TEST(TelemetryRecorder, ASlowDiskMakesThePusherDropAndCountNeverWait) {
  const testing::VehicleTable table;
  auto owned = std::make_unique<testing::BlockingSink>();
  testing::BlockingSink& sink = *owned;
  TelemetryRecorder rec(table, std::move(owned),
                        {.tick_period_ns = 1'000'000, .ring_seconds = 0.0, .chunk_bytes = 1});
  sink.arm();
  std::vector<double> values(table.size(), 1.0);
  ASSERT_EQ(rec.push(0, values), PushResult::queued);
  ASSERT_TRUE(sink.wait_blocked(std::chrono::seconds(10)));  // the recorder is stuck writing

  constexpr std::int64_t kTicks = 10'000;
  auto pusher = std::async(std::launch::async, [&] {
    std::uint64_t queued = 0;
    std::uint64_t dropped = 0;
    for (std::int64_t k = 1; k <= kTicks; ++k) {
      (rec.push(k, values) == PushResult::queued ? queued : dropped) += 1;
    }
    return std::pair(queued, dropped);
  });
  const bool finished = pusher.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  EXPECT_TRUE(sink.wait_blocked(std::chrono::milliseconds(0)));  // still stuck meanwhile
  sink.release();
  ASSERT_TRUE(finished) << "push() waited for the disk";
  const auto [queued, dropped] = pusher.get();
  EXPECT_EQ(queued, 16U);  // the ring's pre-sized room (16 samples at least)
  EXPECT_EQ(dropped, kTicks - 16U);
  EXPECT_EQ(rec.counters().samples_dropped, dropped);

  rec.stop();
  const RecorderCounters c = rec.counters();
  EXPECT_EQ(c.samples_recorded, 1 + queued);
  EXPECT_EQ(c.samples_recorded + c.samples_dropped, static_cast<std::uint64_t>(kTicks + 1));
  EXPECT_EQ(rec.error(), "");
}

TEST(TelemetryRecorder, AFullDiskIsReportedAndEverySampleAfterItCounted) {
  const testing::VehicleTable table;
  TelemetryRecorder rec(table, std::make_unique<testing::FullDiskSink>(64 * 1024),
                        {.tick_period_ns = 1'000'000, .chunk_bytes = 1024});
  const testing::Pushed pushed = testing::push_ticks(rec, 3000, table.size());
  rec.stop();
  EXPECT_NE(rec.error().find("No space left on device"), std::string::npos) << rec.error();
  const RecorderCounters c = rec.counters();
  EXPECT_GT(c.samples_dropped, 0U);
  EXPECT_GT(c.samples_recorded, 0U);
  EXPECT_EQ(c.samples_recorded + c.samples_dropped, pushed.queued + pushed.ring_full);
  EXPECT_LE(c.bytes_written, 64U * 1024);
}

TEST(TelemetryRecorder, ValuesOfTheWrongSizeAreDroppedAndCounted) {
  const testing::VehicleTable table;
  TelemetryRecorder rec(table, std::make_unique<testing::FullDiskSink>(1 << 20),
                        {.tick_period_ns = 1'000'000});
  const std::vector<double> short_values(table.size() - 1, 0.0);
  EXPECT_EQ(rec.push(0, short_values), PushResult::dropped);
  EXPECT_EQ(rec.counters().samples_dropped, 1U);
}

TEST(TelemetryRecorder, FlushesAtTheIntervalAndCountsTheDurableSamples) {
  TempDir dir;
  const testing::VehicleTable table;
  TelemetryRecorder rec(
      table, dir.path() / "t.mcap",
      {.tick_period_ns = 1'000'000, .flush_interval = std::chrono::milliseconds(20)});
  testing::push_ticks(rec, 100, table.size());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (rec.counters().samples_durable < 100 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const RecorderCounters c = rec.counters();
  EXPECT_EQ(c.samples_durable, 100U);
  EXPECT_GE(c.flushes, 1U);
  EXPECT_EQ(c.samples_recorded, 100U);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "t.mcap"), c.bytes_written);
}

TEST(TelemetryRecorder, BadConfigurationsAreRefusedAtSetup) {
  const testing::VehicleTable table;
  TempDir dir;
  EXPECT_THROW(TelemetryRecorder(table, dir.path() / "a.mcap", {.tick_period_ns = 0}),
               std::invalid_argument);
  EXPECT_THROW(
      TelemetryRecorder(table, dir.path() / "b.mcap", {.tick_period_ns = 1000, .max_rate_hz = 0.0}),
      std::invalid_argument);
  EXPECT_THROW(
      TelemetryRecorder(table, dir.path() / "no" / "such" / "dir.mcap", {.tick_period_ns = 1000}),
      std::system_error);
}

}  // namespace
}  // namespace hil::io::record
