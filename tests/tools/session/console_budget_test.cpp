// The console's cost on the RT thread (docs/console.md "Threads and cost"; DESIGN.md §5): the
// RAVON rig's whole tick, run by the harness with its console on, allocates nothing and takes
// no minor page fault — with nobody watching (the tap is never armed) and with four page
// clients streaming 32 channels each (the tap copies every tick). Links the allocation
// counter (tests/support), which replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include <thread>

#include "config/rig/loader.hpp"
#include "runtime/rig.hpp"
#include "tests/support/budget_probe.hpp"
#include "tests/support/console_client.hpp"
#include "tools/session/console_feed.hpp"
#include "tools/session/loop/harness.hpp"

namespace hil::session {
namespace {

constexpr std::int64_t kWarmUpTicks = 4'000;  // 1 s at RAVON's 250 µs
constexpr std::int64_t kTicks = 40'000;

/// In the record slot, after the console's tap: the budget after the warm-up and at the end
/// (this thread's allocations: the console's thread allocates, by design).
using Probe = hil::testing::BudgetProbe;

void expect_free_tick(int clients) {
  config::LoadResult loaded = config::load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(loaded.ok());
  loaded.settings->can.clear();  // the tick of the rig's models and helpers; no ECU
  runtime::Rig rig(*loaded.settings, {.live_bus = false});
  Probe probe{kWarmUpTicks, kTicks - 1, /*thread_only=*/true};
  runtime::TickPlan plan;
  rig.add_stages(plan);
  plan.add(runtime::Slot::record, "probe", probe);
  io::console::ConsoleSpec console;
  console.port = 0;
  Speed speed;
  speed.mode = Speed::Mode::max;
  std::vector<std::unique_ptr<hil::testing::ConsoleClient>> watching;
  std::uint64_t tap_dropped = 0;
  {
    Harness harness(loaded.settings->executive, std::move(plan),
                    {.speed = speed,
                     .quiet = true,
                     .console = console,
                     .console_feed = console_feed(rig, {.rig = "ravon", .run_id = "budget"})});
    ASSERT_NE(harness.console(), nullptr);
    for (int i = 0; i < clients; ++i) {
      watching.push_back(std::make_unique<hil::testing::ConsoleClient>(
          hil::testing::console_port(harness.console()->url()),
          R"(["vehicle.wheel.*", "vehicle.body.*"])"));
      EXPECT_GE(watching.back()->channels, 32U);
    }
    const RunOutcome out = harness.run(kTicks);
    ASSERT_EQ(out.result.ticks, kTicks);
    tap_dropped = harness.console()->counters().tap_dropped;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the last frames go out
  }
  EXPECT_EQ(probe.after.allocations - probe.before.allocations, 0U) << clients << " clients";
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(probe.after.faults - probe.before.faults, 0) << clients << " clients";
  }
  for (const auto& c : watching) EXPECT_GT(c->frames.load(), 0U) << "a client got no samples";
  if (clients == 0) {
    EXPECT_EQ(tap_dropped, 0U) << "the tap ran while nobody watched";
  }
  watching.clear();
}

TEST(ConsoleBudget, NobodyWatchingCostsTheTickNothing) { expect_free_tick(0); }

TEST(ConsoleBudget, FourStreamingClientsCostTheTickNoAllocationNorFault) { expect_free_tick(4); }

}  // namespace
}  // namespace hil::session
