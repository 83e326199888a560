// The RT path of a scenario in the loop (DESIGN.md §5): the virtual ECU (bus, driver, its
// judge), the scenario's events and the rig-side judge, with the rig's own tasks, run a
// whole scenario — gust ramps, lane gates, path projections — without one heap allocation
// or minor page fault after the first second. Links the allocation counter (tests/support),
// which replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include "config/scenario/scenario_spec.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"
#include "runtime/rig.hpp"
#include "tests/support/budget_probe.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::ecu {
namespace {

constexpr std::int64_t kWarmUpTicks = 4'000;  // 1 s at RAVON's 250 µs

/// Runs `seconds` of the scenario (its whole duration when 0).
void expect_no_allocation(const std::string& scenario_name, double seconds = 0.0) {
  config::ScenarioLoadResult loaded =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/" + scenario_name + ".pbtxt",
                            HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(loaded.ok());
  loaded.rig->can[0].uri = "virtual:ecu_alloc_" + scenario_name;
  const std::int64_t ticks = seconds > 0.0 ? static_cast<std::int64_t>(seconds * 4000)
                                           : std::llround(loaded.scenario->duration_s * 4000);
  hil::testing::BudgetProbe probe(kWarmUpTicks, ticks - 1);
  const bool has_events = !loaded.scenario->events.empty();
  const std::unique_ptr<session::Run> run =
      session::RunBuilder({.loaded = session::LoadedRig{.name = "ravon",
                                                        .settings = std::move(*loaded.rig),
                                                        .scenario = std::move(loaded.scenario)},
                           .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
                           .quiet = true,
                           .extra_stages =
                               [&probe](runtime::TickPlan& plan, runtime::Rig&) {
                                 plan.add(runtime::Slot::fmu, "probe",
                                          probe);  // the last of the update phase
                               }})
          .build();

  ASSERT_EQ(run->run_until(ticks).ticks, ticks);

  EXPECT_EQ(probe.after.allocations - probe.before.allocations, 0U) << scenario_name;
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(probe.after.faults - probe.before.faults, 0) << scenario_name;
  }
  if (has_events) {
    EXPECT_GT(run->events->started(), 0U);
  }
  EXPECT_GT(run->ecu->cycles(), 1000U);
}

TEST(ScenarioBudget, IceAndGustRunAllocatesNothing) { expect_no_allocation("ice_crosswind"); }

TEST(ScenarioBudget, LaneChangeRunAllocatesNothing) {
  expect_no_allocation("double_lane_change", 40.0);  // through section 1's lane gate
}

}  // namespace
}  // namespace hil::ecu
