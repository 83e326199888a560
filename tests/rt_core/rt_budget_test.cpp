// The real-time budget (DESIGN.md §5): across 10,000 ticks of a loop with tasks, after
// warm-up, no heap allocation and no minor page fault. Links the allocation counter
// (tests/support), which replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include <Eigen/Core>

#include "rt_core/channel_table.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/rk4.hpp"
#include "rt_core/rt_setup.hpp"
#include "rt_core/rt_thread.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::rt {
namespace {

constexpr std::int64_t kWarmUpTicks = 1'000;
constexpr std::int64_t kMeasuredTicks = 10'000;

/// A damped oscillator integrated with RK4 into channels, published every tick.
class ModelTask {
 public:
  explicit ModelTask(ChannelTable& table)
      : table_(table),
        position_(table.add({.name = "model.position", .unit = "m"})),
        velocity_(table.add({.name = "model.velocity", .unit = "m/s"})) {}
  void step(const TickContext& c) noexcept {
    using State = Eigen::Matrix<double, 13, 1>;  // the size of a 6-DOF rigid-body state
    x_ = rk4_step([](double, const State& x) -> State { return -0.5 * x; }, 0.0, x_, c.dt_s);
    table_.set(position_, x_[0]);
    table_.set(velocity_, x_[1]);
  }
  void publish(const TickContext& c) noexcept { table_.publish(c.tick); }
  MethodStage<&ModelTask::step> update{*this};
  MethodStage<&ModelTask::publish> write{*this};

 private:
  ChannelTable& table_;
  ChannelId position_, velocity_;
  Eigen::Matrix<double, 13, 1> x_ = Eigen::Matrix<double, 13, 1>::Ones();
};

/// Samples the allocation counter and the thread's minor faults at the window's edges.
class Probe final : public Stage {
 public:
  void run(const TickContext& c) noexcept override {
    if (c.tick == kWarmUpTicks) sample(allocations_before, faults_before);
    if (c.tick == kWarmUpTicks + kMeasuredTicks) sample(allocations_after, faults_after);
  }
  std::uint64_t allocations_before = 0, allocations_after = 0;
  long faults_before = 0, faults_after = 0;

 private:
  static void sample(std::uint64_t& allocations, long& faults) noexcept {
    allocations = hil::testing::allocation_count();
    faults = hil::testing::thread_minor_faults();
  }
};

class SlowTask final : public Stage {  // a decimated task that posts to the RT log
 public:
  explicit SlowTask(RtLog& log) : log_(log) {}
  void run(const TickContext& c) noexcept override {
    (void)log_.post(RtLogLevel::info, "slow task at tick {}", c.tick);
  }

 private:
  RtLog& log_;
};

TEST(RtBudget, NoAllocationAndNoPageFaultAcross10kTicksAfterWarmUp) {
  ChannelTable table;
  ModelTask model(table);
  table.freeze();
  RtLog log(64);  // small on purpose: it fills up and drops, which must not allocate either
  SlowTask slow(log);
  Probe probe;
  MonotonicClock clock;
  Executive exec({.period = 100 * kMicrosecond, .overrun = {.kind = OverrunKind::skip}},
                 {{.name = "model", .stage = &model.update},
                  {.name = "slow", .stage = &slow, .decimation = 10},
                  {.name = "probe", .stage = &probe},
                  {.name = "publish", .stage = &model.write, .phase = Phase::write}},
                 clock, &log);
  RtStatus status;
  RtProcessGuard process({.priority = 0, .hold_dma_latency = false}, status);

  RunResult result;
  {
    RtThread thread({.priority = 0}, status,
                    [&] { result = exec.run(kWarmUpTicks + kMeasuredTicks + 1); });
  }

  ASSERT_EQ(result.ticks, kWarmUpTicks + kMeasuredTicks + 1);
  EXPECT_EQ(probe.allocations_after - probe.allocations_before, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(probe.faults_after - probe.faults_before, 0);
  }
  EXPECT_GT(log.dropped(), 0U);  // the log ring overflowed inside the window
  ChannelSnapshot snap;
  table.read_snapshot(snap);
  EXPECT_EQ(snap.tick(), kWarmUpTicks + kMeasuredTicks);
}

}  // namespace
}  // namespace hil::rt
