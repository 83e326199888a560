// The RT path of a driver in the loop (DESIGN.md §5): the built-in ECU reading the driver's
// channels in the rig's table, driving in HUMAN mode, and going back to AUTO (finding the path
// again) — with the command queue applying the driver's writes and releases — allocates nothing
// and takes no minor page fault once each has run once. Links the allocation counter
// (tests/support), which replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include "config/scenario/scenario_spec.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/support/budget_probe.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::ecu {
namespace {

constexpr std::int64_t kTicksPerSecond = 4000;

TEST(HumanModeBudget, DrivingByHandAndGivingTheWheelBackAllocatesNothing) {
  config::ScenarioLoadResult loaded =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt",
                            HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(loaded.ok());
  loaded.rig->can[0].uri = "virtual:human_mode_alloc";
  const std::unique_ptr<session::Run> run =
      session::RunBuilder({.loaded = session::LoadedRig{.name = "ravon",
                                                        .settings = std::move(*loaded.rig),
                                                        .scenario = std::move(loaded.scenario)},
                           .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
                           .quiet = true})
          .build();
  runtime::CommandQueue& queue = *run->commands;
  std::int64_t ticks = 0;
  const auto run_for = [&](double seconds) {
    ticks += std::llround(seconds * kTicksPerSecond);
    return run->run_until(ticks).ticks == ticks;
  };
  const auto take = [&] {
    (void)queue.write("driver.mode", 1);
    (void)queue.write("driver.throttle", 0.8);
    (void)queue.write("driver.steer", 0.4);
  };
  const auto give_back = [&] {
    for (const char* c : {"driver.steer", "driver.throttle", "driver.mode"}) (void)queue.release(c);
  };
  // once each, to warm up: AUTO, HUMAN, AUTO again
  ASSERT_TRUE(run_for(1.0));
  take();
  ASSERT_TRUE(run_for(1.0));
  give_back();
  ASSERT_TRUE(run_for(1.0));
  (void)queue.take_applied();
  // measured on this thread, which runs the loop (the run's I/O thread allocates as it may);
  // the commands are submitted (which allocates) between the measured stretches
  take();
  const hil::testing::Budget human_before = hil::testing::budget_now(/*thread_only=*/true);
  ASSERT_TRUE(run_for(2.0));
  const hil::testing::Budget human_after = hil::testing::budget_now(/*thread_only=*/true);
  EXPECT_TRUE(run->ecu->driver().human());
  give_back();
  const hil::testing::Budget auto_before = hil::testing::budget_now(/*thread_only=*/true);
  ASSERT_TRUE(run_for(2.0));
  const hil::testing::Budget auto_after = hil::testing::budget_now(/*thread_only=*/true);
  EXPECT_FALSE(run->ecu->driver().human());

  EXPECT_EQ(human_after.allocations - human_before.allocations, 0U);
  EXPECT_EQ(auto_after.allocations - auto_before.allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(human_after.faults - human_before.faults, 0);
    EXPECT_EQ(auto_after.faults - auto_before.faults, 0);
  }
}

}  // namespace
}  // namespace hil::ecu
