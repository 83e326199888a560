// The RT side of the service watchdog: TickCounterStage in an executive, RunNotifier polled by
// IoJobs polling it from a non-RT thread. The RT thread allocates nothing (the allocation counter
// replaces operator new, so this is a binary of its own) and systemd's end of the socket
// sees the run start, make progress and stop.

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "rt_core/executive.hpp"
#include "runtime/tick_counter_stage.hpp"
#include "tests/rt_core/simulated_clock.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/tools/session/notify_socket.hpp"
#include "tools/session/loop/io_jobs.hpp"
#include "tools/session/loop/sd_notify.hpp"

namespace hil::tools {
namespace {

/// Runs before the counter in each tick: by then the counter holds the ticks before this one.
class CounterProbe final : public rt::Stage {
 public:
  explicit CounterProbe(const runtime::TickCounterStage& counter) : counter_(counter) {}
  void run(const rt::TickContext& ctx) noexcept override {
    if (counter_.ticks().load(std::memory_order_relaxed) != ctx.tick) ++mismatches;
  }
  std::int64_t mismatches = 0;

 private:
  const runtime::TickCounterStage& counter_;
};

TEST(TickCounterStage, CountsCompleteTicks) {
  runtime::TickCounterStage counter;
  CounterProbe probe(counter);
  rt::testing::SimulatedClock clock;
  rt::Executive exec({.period = rt::kMillisecond},
                     {{.name = "probe", .stage = &probe}, {.name = "ticks", .stage = &counter}},
                     clock);
  const rt::RunResult result = exec.run(1000);
  EXPECT_EQ(result.ticks, 1000);
  EXPECT_EQ(counter.ticks().load(), 1000);
  EXPECT_EQ(probe.mismatches, 0);
}

TEST(TickCounterStage, TheRtThreadAllocatesNothingWhileSystemdIsNotified) {
  testing::NotifySocket manager;
  manager.export_socket();
  testing::NotifySocket::export_watchdog(std::chrono::milliseconds(100));
  runtime::TickCounterStage counter;
  rt::MonotonicClock clock;
  rt::Executive exec({.period = 100 * rt::kMicrosecond}, {{.name = "ticks", .stage = &counter}},
                     clock);
  session::RunNotifier notifier(counter.ticks(), [&exec] {
    const rt::TimingSnapshot s = exec.stats().snapshot();  // allocates, on the polling thread
    return session::format_run_status(s.ticks, 1.0, s.overruns);
  });

  rt::RunResult result;
  std::uint64_t rt_allocations = 0;
  {
    session::IoJobs polling;  // as a run polls it
    polling.every(std::chrono::duration_cast<std::chrono::milliseconds>(notifier.poll_period()),
                  [&notifier] { notifier.poll(); });
    std::thread loop([&] {  // 3000 ticks of 100 us: 0.3 s
      rt_allocations = hil::testing::allocations_in([&] { result = exec.run(3000); });
    });
    loop.join();
  }
  notifier.stopping();

  EXPECT_EQ(rt_allocations, 0U);
  EXPECT_EQ(result.ticks, 3000);
  EXPECT_EQ(counter.ticks().load(), 3000);
  const std::vector<std::string> datagrams = manager.drain();
  ASSERT_GE(datagrams.size(), 3U);
  EXPECT_EQ(datagrams.front(), "READY=1");
  EXPECT_TRUE(datagrams[1].starts_with("STATUS=tick ")) << datagrams[1];
  EXPECT_GE(std::count(datagrams.begin(), datagrams.end(), "WATCHDOG=1"), 1);
  EXPECT_EQ(datagrams.back(), "STOPPING=1");
}

}  // namespace
}  // namespace hil::tools
