// Executive semantics on a simulated clock: tick numbering, stages in order, multi-rate
// decimation, runs in segments, and what each overrun policy does, exactly.

#include "rt_core/executive.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <functional>
#include <string>
#include <vector>

#include "tests/rt_core/simulated_clock.hpp"

namespace hil::rt {
namespace {

using testing::SimulatedClock;

constexpr Nanoseconds kPeriod = 1 * kMillisecond;

/// Records the ticks it ran on (and its name into `order`); optionally costs `cost(tick)` of
/// simulated time.
class RecordingStage final : public Stage {
 public:
  explicit RecordingStage(SimulatedClock& clock, std::function<Nanoseconds(std::int64_t)> cost = {})
      : clock_(clock), cost_(std::move(cost)) {}
  void run(const TickContext& c) noexcept override {
    if (order != nullptr) *order += name;
    ticks.push_back(c.tick);
    times.push_back(c.time);
    dts.push_back(c.dt);
    if (cost_) clock_.advance(cost_(c.tick));
  }

  std::vector<std::int64_t> ticks;
  std::vector<Nanoseconds> times;
  std::vector<Nanoseconds> dts;
  std::string* order = nullptr;
  char name = '?';

 private:
  SimulatedClock& clock_;
  std::function<Nanoseconds(std::int64_t)> cost_;
};

ExecutiveSpec config_with(OverrunPolicy policy) {
  return ExecutiveSpec{.period = kPeriod, .overrun = policy};
}

/// Every 100th tick costs 2.5 periods; every other tick costs 10 % of one.
Nanoseconds overrun_every_100th(std::int64_t tick) {
  return tick % 100 == 99 ? kPeriod * 5 / 2 : kPeriod / 10;
}

TEST(Executive, RunsTheStagesInTheirOrderAndCountsTicksFromZero) {
  SimulatedClock clock;
  std::string order;
  RecordingStage read(clock), update(clock), write(clock);
  read.name = 'r';
  update.name = 'u';
  write.name = 'w';
  for (RecordingStage* s : {&read, &update, &write}) s->order = &order;
  Executive exec(config_with({}),
                 {{.name = "r", .stage = &read, .phase = Phase::read},
                  {.name = "u", .stage = &update, .phase = Phase::update},
                  {.name = "w", .stage = &write, .phase = Phase::write}},
                 clock);

  const RunResult result = exec.run(3);

  EXPECT_EQ(result.reason, StopReason::tick_limit);
  EXPECT_EQ(result.ticks, 3);
  EXPECT_EQ(order, "ruwruwruw");
  EXPECT_EQ(update.ticks, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(update.times, (std::vector<Nanoseconds>{0, kPeriod, 2 * kPeriod}));
  EXPECT_EQ(update.dts, (std::vector<Nanoseconds>{kPeriod, kPeriod, kPeriod}));
}

TEST(Executive, RefusesAStageListWhosePhasesGoBack) {
  SimulatedClock clock;
  RecordingStage a(clock), b(clock);
  try {
    Executive exec(config_with({}),
                   {{.name = "vehicle", .stage = &a, .phase = Phase::update},
                    {.name = "can_rx", .stage = &b, .phase = Phase::read}},
                   clock);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "stage 'can_rx' runs in the read phase after a stage of the update phase: a tick "
                 "reads, then updates, then writes");
  }
}

TEST(Executive, ContinuesInSegmentsWithDecimationAndOffset) {
  SimulatedClock c1, c2;
  RecordingStage whole(c1), segmented(c2);
  Executive one(ExecutiveSpec{.period = kPeriod},
                {{.name = "t", .stage = &whole, .decimation = 4, .offset = 1}}, c1);
  Executive parts(ExecutiveSpec{.period = kPeriod},
                  {{.name = "t", .stage = &segmented, .decimation = 4, .offset = 1}}, c2);

  EXPECT_EQ(one.run(23).ticks, 23);
  EXPECT_EQ(parts.run(2).ticks, 2);
  EXPECT_EQ(parts.run(2).ticks, 2);  // already there: nothing runs
  EXPECT_EQ(parts.run(10).ticks, 10);
  EXPECT_EQ(parts.run(23).ticks, 23);
  EXPECT_EQ(parts.ticks_run(), 23);
  EXPECT_EQ(segmented.ticks, whole.ticks);
  EXPECT_EQ(whole.ticks, (std::vector<std::int64_t>{1, 5, 9, 13, 17, 21}));
  EXPECT_EQ(parts.stats().snapshot().ticks, 23);
}

TEST(Executive, APauseBetweenSegmentsIsNotAnOverrun) {
  SimulatedClock clock;
  RecordingStage t(clock);
  Executive exec({.period = kPeriod}, {{.name = "t", .stage = &t}}, clock);
  ASSERT_EQ(exec.run(5).ticks, 5);
  clock.advance(kSecond);  // paused for a second
  ASSERT_EQ(exec.run(10).ticks, 10);
  EXPECT_EQ(exec.stats().snapshot().overruns, 0U);
}

TEST(Executive, DecimatedTaskRunsExactlyEveryNthTickOver100kTicks) {
  SimulatedClock clock;
  RecordingStage base(clock);
  RecordingStage every7(clock);
  RecordingStage every10_offset3(clock);
  Executive exec(config_with({}),
                 {{.name = "base", .stage = &base},
                  {.name = "every7", .stage = &every7, .decimation = 7},
                  {.name = "every10", .stage = &every10_offset3, .decimation = 10, .offset = 3}},
                 clock);

  ASSERT_EQ(exec.run(100'000).ticks, 100'000);

  ASSERT_EQ(base.ticks.size(), 100'000U);
  ASSERT_EQ(every7.ticks.size(), 14'286U);  // ticks 0, 7, ..., 99'995
  for (std::size_t i = 0; i < every7.ticks.size(); ++i) {
    ASSERT_EQ(every7.ticks[i], static_cast<std::int64_t>(7 * i));
  }
  ASSERT_EQ(every10_offset3.ticks.size(), 10'000U);
  for (std::size_t i = 0; i < every10_offset3.ticks.size(); ++i) {
    ASSERT_EQ(every10_offset3.ticks[i], static_cast<std::int64_t>(10 * i + 3));
  }
  EXPECT_EQ(every7.dts.front(), 7 * kPeriod);
  EXPECT_EQ(exec.stats().snapshot().task_exec_time[1].count, 14'286U);
}

TEST(Executive, ARunInSegmentsRunsEachTaskAtTheTicksOfOneRun) {
  // Replay runs the loop up to each recorded sample: segments of any length, each starting
  // where the last stopped; decimated tasks and timed ticks keep their phase across them
  SimulatedClock clock;
  RecordingStage every7(clock);
  RecordingStage every10_offset3(clock);
  ExecutiveSpec config = config_with({});
  config.task_timing_stride = 4;
  Executive exec(config,
                 {{.name = "every7", .stage = &every7, .decimation = 7},
                  {.name = "every10", .stage = &every10_offset3, .decimation = 10, .offset = 3}},
                 clock);
  for (std::int64_t end = 0; end < 1'000;) {
    end = std::min<std::int64_t>(end + 1 + end % 13, 1'000);  // 1, 3, 7, … ticks at a time
    ASSERT_EQ(exec.run(end).ticks, end);
  }
  ASSERT_EQ(every7.ticks.size(), 143U);
  for (std::size_t i = 0; i < every7.ticks.size(); ++i) {
    ASSERT_EQ(every7.ticks[i], static_cast<std::int64_t>(7 * i));
  }
  ASSERT_EQ(every10_offset3.ticks.size(), 100U);
  for (std::size_t i = 0; i < every10_offset3.ticks.size(); ++i) {
    ASSERT_EQ(every10_offset3.ticks[i], static_cast<std::int64_t>(10 * i + 3));
  }
  // timed are ticks 0, 4, 8, …: every7 is timed at the multiples of 28; every10 (odd ticks) never
  EXPECT_EQ(exec.stats().snapshot().task_exec_time[0].count, 36U);
  EXPECT_EQ(exec.stats().snapshot().task_exec_time[1].count, 0U);
}

TEST(Executive, SkipPolicyCountsEachOverrunAtItsTickAndDropsMissedPeriods) {
  SimulatedClock clock;
  RecordingStage task(clock, overrun_every_100th);
  Executive exec(config_with({.kind = OverrunKind::skip}), {{.name = "t", .stage = &task}}, clock);
  const Nanoseconds start = clock.now();

  ASSERT_EQ(exec.run(1000).ticks, 1000);

  const TimingSnapshot s = exec.stats().snapshot();
  EXPECT_EQ(s.overruns, 10U);
  ASSERT_EQ(s.recent_overruns.size(), 10U);
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(s.recent_overruns[i].tick, static_cast<std::int64_t>(100 * i + 99));
    EXPECT_EQ(s.recent_overruns[i].late_by, kPeriod * 3 / 2);
  }
  // Each overrun ends 2.5 periods after its deadline: the next two deadlines are dropped and
  // the phase is kept. The last tick (999) starts on its deadline, 1 + 999 + 18 dropped
  // periods after the start, and costs 2.5 periods.
  EXPECT_EQ(s.missed_periods, 20U);
  EXPECT_EQ(s.catch_up_ticks, 0U);
  EXPECT_EQ(clock.now() - start, (1 + 999 + 18) * kPeriod + kPeriod * 5 / 2);
}

TEST(Executive, CatchUpPolicyRunsMissedTicksBackToBackAndLosesNoPeriod) {
  SimulatedClock clock;
  RecordingStage task(clock, overrun_every_100th);
  Executive exec(config_with({.kind = OverrunKind::catch_up, .catch_up_max = 4}),
                 {{.name = "t", .stage = &task}}, clock);
  const Nanoseconds start = clock.now();

  ASSERT_EQ(exec.run(1000).ticks, 1000);

  const TimingSnapshot s = exec.stats().snapshot();
  // Tick 100i+99 overruns; tick 100i+100 starts 1.5 periods late and ends after its own next
  // deadline, so it overruns too; tick 100i+101 starts 0.6 periods late and ends in time.
  EXPECT_EQ(s.missed_periods, 0U);
  EXPECT_EQ(s.catch_up_ticks, 18U);  // 2 per injection; the last (tick 999) has none after it
  ASSERT_EQ(s.overruns, 19U);
  EXPECT_EQ(s.recent_overruns[0].tick, 99);
  EXPECT_EQ(s.recent_overruns[1].tick, 100);
  EXPECT_EQ(s.recent_overruns[2].tick, 199);
  // No period lost: tick k still runs in the k-th period, so the run ends on schedule.
  EXPECT_EQ(clock.now() - start, 1000 * kPeriod + kPeriod * 5 / 2);
}

TEST(Executive, CatchUpPolicyDropsWhatExceedsItsLimit) {
  SimulatedClock clock;
  // Tick 10 costs 5.5 periods: 5 deadlines are missed, only 2 may be caught up.
  RecordingStage task(clock, [](std::int64_t k) { return k == 10 ? kPeriod * 11 / 2 : 0; });
  Executive exec(config_with({.kind = OverrunKind::catch_up, .catch_up_max = 2}),
                 {{.name = "t", .stage = &task}}, clock);

  ASSERT_EQ(exec.run(20).ticks, 20);

  const TimingSnapshot s = exec.stats().snapshot();
  EXPECT_EQ(s.catch_up_ticks, 2U);  // ticks 11 and 12 ran back to back
  EXPECT_EQ(s.overruns, 3U);        // ticks 10, 11, 12 all ended past their next deadline
  EXPECT_EQ(s.missed_periods, 3U);  // the rest were dropped after tick 12
}

TEST(Executive, StopAfterPolicyStopsCleanlyOnTheNthOverrunInsideTheWindow) {
  SimulatedClock clock;
  RecordingStage task(clock, overrun_every_100th);
  // Overruns at ticks 99, 199, 299: the third lies within 250 ticks of the first
  // (299 − 99 = 200 < 250), so the loop stops right after tick 299.
  Executive exec(config_with({.kind = OverrunKind::stop_after,
                              .stop_after_overruns = 3,
                              .stop_after_window_ticks = 250}),
                 {{.name = "t", .stage = &task}}, clock);

  const RunResult result = exec.run(10'000);

  EXPECT_EQ(result.reason, StopReason::overrun_limit);
  EXPECT_EQ(result.ticks, 300);
  EXPECT_EQ(task.ticks.back(), 299);
  EXPECT_EQ(exec.stats().snapshot().overruns, 3U);
}

TEST(Executive, StopAfterPolicyKeepsRunningWhenOverrunsAreSparserThanTheWindow) {
  SimulatedClock clock;
  RecordingStage task(clock, overrun_every_100th);
  Executive exec(config_with({.kind = OverrunKind::stop_after,
                              .stop_after_overruns = 3,
                              .stop_after_window_ticks = 150}),
                 {{.name = "t", .stage = &task}}, clock);

  const RunResult result = exec.run(1000);

  EXPECT_EQ(result.reason, StopReason::tick_limit);
  EXPECT_EQ(result.ticks, 1000);
  EXPECT_EQ(exec.stats().snapshot().overruns, 10U);
}

TEST(Executive, RequestStopEndsTheRunBeforeTheNextTick) {
  SimulatedClock clock;
  std::vector<std::int64_t> seen;
  struct Stopper final : Stage {
    Executive* exec = nullptr;
    std::vector<std::int64_t>* seen = nullptr;
    void run(const TickContext& c) noexcept override {
      seen->push_back(c.tick);
      if (c.tick == 41) exec->request_stop();
    }
  } stopper;
  stopper.seen = &seen;
  Executive exec(config_with({}), {{.name = "stopper", .stage = &stopper}}, clock);
  stopper.exec = &exec;

  const RunResult result = exec.run(-1);

  EXPECT_EQ(result.reason, StopReason::stop_requested);
  EXPECT_EQ(result.ticks, 42);
  EXPECT_EQ(seen.size(), 42U);
}

TEST(Executive, RejectsOutOfRangePeriodsAndBadStagesAtSetup) {
  SimulatedClock clock;
  RecordingStage task(clock);
  EXPECT_THROW(Executive(ExecutiveSpec{.period = 49 * kMicrosecond}, {}, clock),
               std::invalid_argument);
  EXPECT_THROW(Executive(ExecutiveSpec{.period = 101 * kMillisecond}, {}, clock),
               std::invalid_argument);
  EXPECT_NO_THROW(Executive(ExecutiveSpec{.period = 50 * kMicrosecond}, {}, clock));
  EXPECT_NO_THROW(Executive(ExecutiveSpec{.period = 100 * kMillisecond}, {}, clock));
  EXPECT_THROW(Executive(config_with({}), {{.name = "t", .stage = &task, .decimation = 0}}, clock),
               std::invalid_argument);
  EXPECT_THROW(Executive(config_with({}), {{.name = "null"}}, clock), std::invalid_argument);
}

TEST(Executive, WakeLatencyAndExecutionTimeAreMeasuredPerTickAndPerTask) {
  SimulatedClock clock;
  RecordingStage cheap(clock, [](std::int64_t) { return 3 * kMicrosecond; });
  RecordingStage dear(clock, [](std::int64_t) { return 40 * kMicrosecond; });
  Executive exec(config_with({}),
                 {{.name = "cheap", .stage = &cheap}, {.name = "dear", .stage = &dear}}, clock);

  ASSERT_EQ(exec.run(100).ticks, 100);

  const TimingSnapshot s = exec.stats().snapshot();
  EXPECT_EQ(s.wake_latency.max_ns, 0);  // a simulated clock wakes exactly on time
  EXPECT_EQ(s.exec_time.min_ns, 43 * kMicrosecond);
  EXPECT_EQ(s.exec_time.max_ns, 43 * kMicrosecond);
  EXPECT_EQ(s.task_exec_time[0].percentile_us(0.5), 3.0);
  EXPECT_EQ(s.task_exec_time[1].percentile_us(0.99), 40.0);
}

TEST(Executive, ATaskTimingStrideTimesTasksOnEveryNthTickAndTheTickAlways) {
  SimulatedClock clock;
  RecordingStage cheap(clock, [](std::int64_t) { return 3 * kMicrosecond; });
  RecordingStage dear(clock, [](std::int64_t tick) {
    return tick == 6 ? 2 * kPeriod : 40 * kMicrosecond;  // tick 6 overruns, untimed
  });
  ExecutiveSpec config = config_with({});
  config.task_timing_stride = 4;
  Executive exec(config, {{.name = "cheap", .stage = &cheap}, {.name = "dear", .stage = &dear}},
                 clock);
  ASSERT_EQ(exec.run(100).ticks, 100);
  const TimingSnapshot s = exec.stats().snapshot();
  EXPECT_EQ(s.exec_time.count, 100U);                             // every tick
  EXPECT_EQ(s.exec_time.max_ns, 2 * kPeriod + 3 * kMicrosecond);  // the untimed tick's too
  EXPECT_EQ(s.overruns, 1U);                                      // and its overrun
  EXPECT_EQ(s.task_exec_time[0].count, 25U);                      // ticks 0, 4, 8, …
  EXPECT_EQ(s.task_exec_time[1].max_ns, 40 * kMicrosecond);
  EXPECT_EQ(cheap.ticks.size(), 100U);  // every stage still ran on every tick
}

}  // namespace
}  // namespace hil::rt
