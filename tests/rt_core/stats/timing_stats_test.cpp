#include "rt_core/stats/timing_stats.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace hil::rt {
namespace {

TEST(Histogram, PercentilesFollowTheBinsOfAKnownDistribution) {
  TimingStats stats(0);
  // 1..1000 µs, one sample each (+0.5 µs so each lands mid-bin).
  for (std::int64_t i = 1; i <= 1000; ++i) {
    stats.record({.tick = i - 1, .wake_latency = i * kMicrosecond + 500, .exec = 5 * kMicrosecond});
  }
  const HistogramSummary h = stats.snapshot().wake_latency;

  EXPECT_EQ(h.count, 1000U);
  EXPECT_EQ(h.percentile_us(0.50), 500.0);
  EXPECT_EQ(h.percentile_us(0.99), 990.0);
  EXPECT_EQ(h.percentile_us(0.999), 999.0);
  EXPECT_EQ(h.percentile_us(1.0), 1000.0);
  EXPECT_EQ(h.min_ns, 1'500);
  EXPECT_EQ(h.max_ns, 1'000'500);
  EXPECT_DOUBLE_EQ(h.mean_us, 501.0);
}

TEST(Histogram, SamplesBeyondTenMillisecondsAreCountedAsOverflowAndReportTheMax) {
  TimingStats stats(0);
  for (int i = 0; i < 9; ++i) stats.record({.tick = i, .wake_latency = 10 * kMicrosecond});
  stats.record({.tick = 9, .wake_latency = 25 * kMillisecond});
  const HistogramSummary h = stats.snapshot().wake_latency;

  EXPECT_EQ(h.overflow, 1U);
  EXPECT_EQ(h.percentile_us(0.5), 10.0);
  EXPECT_EQ(h.percentile_us(1.0), 25'000.0);
  EXPECT_EQ(h.max_ns, 25 * kMillisecond);
}

TEST(TimingStats, KeepsTheLast1024OverrunsInOrder) {
  TimingStats stats(0);
  for (std::int64_t k = 0; k < 3000; ++k) {
    stats.record({.tick = k, .overrun = k % 2 == 0, .late_by = k});
  }
  const TimingSnapshot s = stats.snapshot();

  EXPECT_EQ(s.overruns, 1500U);
  ASSERT_EQ(s.recent_overruns.size(), 1024U);
  EXPECT_EQ(s.recent_overruns.front().tick, 2 * (1500 - 1024));
  EXPECT_EQ(s.recent_overruns.back().tick, 2998);
  EXPECT_EQ(s.recent_overruns.back().late_by, 2998);
  EXPECT_EQ(stats.recent_overrun_tick(0), 2998);
  EXPECT_EQ(stats.recent_overrun_tick(1023), 2 * (1500 - 1024));
  EXPECT_FALSE(stats.recent_overrun_tick(1024).has_value());
}

TEST(TimingStats, ConcurrentReadersSeeConsistentSnapshots) {
  TimingStats stats(1);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    const Nanoseconds task[] = {3 * kMicrosecond};
    for (std::int64_t k = 0; k < 50'000; ++k) {
      stats.record(
          {.tick = k, .wake_latency = kMicrosecond, .exec = 2 * kMicrosecond, .task_exec = task});
    }
    done.store(true, std::memory_order_release);
  });
  while (!done.load(std::memory_order_acquire)) {
    const TimingSnapshot s = stats.snapshot();
    ASSERT_EQ(static_cast<std::int64_t>(s.wake_latency.count), s.ticks);
    ASSERT_EQ(s.exec_time.count, s.wake_latency.count);
    ASSERT_EQ(s.task_exec_time[0].count, s.wake_latency.count);
    ASSERT_EQ(s.wake_latency.bins[1], s.wake_latency.count);
  }
  writer.join();
  EXPECT_EQ(stats.snapshot().ticks, 50'000);
}

}  // namespace
}  // namespace hil::rt
