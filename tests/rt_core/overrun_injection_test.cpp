// Overrun injection on the real CLOCK_MONOTONIC: a task busy-waits 2.5 periods every 100th
// tick. The exact semantics of every policy are pinned down on a simulated clock in
// executive_test.cpp; this proves the same on wall time. The period is the longest the
// executive allows (100 ms): the development VMs stall for up to ~50 ms when the host is busy
// (seen: a 25 ms spin took 78 ms at SCHED_FIFO), and the scenario keeps 50 ms of slack, so
// the injected overruns are the only ones and the counts are exact.

#include <gtest/gtest.h>

#include "rt_core/executive.hpp"
#include "rt_core/rt_thread.hpp"

namespace hil::rt {
namespace {

constexpr Nanoseconds kPeriod = kMaxPeriod;
constexpr std::int64_t kTicks = 110;  // injections at ticks 5 and 105

class BusyEvery100th final : public Task {
 public:
  void update(const TickContext& c) noexcept override {
    if (c.tick % 100 == 5) spin_for(kPeriod * 5 / 2);
  }
};

TimingSnapshot run_with(OverrunPolicy policy, RunResult& result) {
  MonotonicClock clock;
  BusyEvery100th task;
  Executive exec({.period = kPeriod, .overrun = policy}, {{.name = "busy", .task = &task}}, clock);
  RtStatus status;  // SCHED_FIFO where permitted; a normal thread otherwise
  {
    RtThread thread({.priority = 50}, status, [&] { result = exec.run(kTicks); });
  }
  return exec.stats().snapshot();
}

TEST(OverrunInjection, SkipCountsExactlyTheInjectedOverrunsAtTheirTicks) {
  RunResult result;
  const TimingSnapshot s = run_with({.kind = OverrunKind::skip}, result);

  EXPECT_EQ(result.ticks, kTicks);
  ASSERT_EQ(s.overruns, 2U);
  EXPECT_EQ(s.recent_overruns[0].tick, 5);
  EXPECT_EQ(s.recent_overruns[1].tick, 105);
  EXPECT_EQ(s.missed_periods, 4U);  // two deadlines dropped per injection
  EXPECT_EQ(s.catch_up_ticks, 0U);
  for (const OverrunEvent& e : s.recent_overruns) {
    EXPECT_GE(e.late_by, kPeriod * 3 / 2);
    EXPECT_LT(e.late_by, kPeriod * 2);
  }
}

TEST(OverrunInjection, CatchUpRunsTheMissedTicksAndDropsNone) {
  RunResult result;
  const TimingSnapshot s = run_with({.kind = OverrunKind::catch_up, .catch_up_max = 4}, result);

  EXPECT_EQ(result.ticks, kTicks);
  EXPECT_EQ(s.missed_periods, 0U);
  EXPECT_EQ(s.catch_up_ticks, 4U);  // ticks 6, 7, 106, 107 ran late
  // The first catch-up tick starts 1.5 periods late, so it also ends past its deadline.
  ASSERT_EQ(s.overruns, 4U);
  EXPECT_EQ(s.recent_overruns[0].tick, 5);
  EXPECT_EQ(s.recent_overruns[1].tick, 6);
  EXPECT_EQ(s.recent_overruns[2].tick, 105);
  EXPECT_EQ(s.recent_overruns[3].tick, 106);
}

TEST(OverrunInjection, StopAfterStopsCleanlyAtTheSecondOverrunInItsWindow) {
  RunResult result;
  const TimingSnapshot s = run_with(
      {.kind = OverrunKind::stop_after, .stop_after_overruns = 2, .stop_after_window_ticks = 101},
      result);

  EXPECT_EQ(result.reason, StopReason::overrun_limit);
  EXPECT_EQ(result.ticks, 106);  // stopped right after tick 105
  EXPECT_EQ(s.overruns, 2U);
  EXPECT_EQ(s.missed_periods, 4U);  // between overruns it behaves as skip
}

}  // namespace
}  // namespace hil::rt
