// The fault engine's RT budget: 32 faults of every kind on at once (channel operations on
// inputs and outputs, every CAN message operation, bus silence, pulses, conditions) run
// without one heap allocation or minor page fault on the tick. Links the allocation counter
// (tests/support), which replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "config/scenario/scenario_spec.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/rig.hpp"
#include "tests/support/budget_probe.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::runtime {
namespace {

constexpr std::int64_t kWarmUpTicks = 4'000;  // 1 s; the faults start at 1.2 s

std::string thirty_two_faults() {
  std::string out;
  int n = 0;
  const auto add = [&](const std::string& start, const std::string& target) {
    out += fmt::format("faults {{ name: \"f{}\" start {{ {} }} {} }}\n", n++, start, target);
  };
  const std::string at = "at_s: 1.2";
  for (const char* op :
       {"force { value: 1 }", "stuck {}", "offset { value: 0.1 }", "gain { value: 1.1 }",
        "noise { sigma: 0.01 }", "drift { per_s: 0.1 }", "delay { s: 0.05 }", "nan {}"}) {
    add(at, fmt::format("channel {{ name: \"vehicle.imu.gyro.z\" {} }}", op));
    add(at, fmt::format("channel {{ name: \"env.wind.speed\" {} }}", op));
  }
  for (const char* op : {"drop {}", "delay { ms: 35 }", "cycle { ms: 5 }", "cycle { every_nth: 3 }",
                         "dlc { length: 6 }", "crc { mode: \"random\" }",
                         "counter { mode: \"freeze\" continue: \"last\" }",
                         "signal { name: \"SteerFront\" value: 0.1 }",
                         "bits { start: 40 size: 4 value: 5 }", "duplicate {}"}) {
    add(at + " } pulse { on_s: 0.1 off_s: 0.05",
        fmt::format("message {{ bus: \"ecu\" name: \"HIL_SteerFeedback\" {} }}", op));
  }
  add(at, R"(message { bus: "ecu" name: "ECU_SpeedRef" delay { ms: 12 } })");
  add(at, R"(message { bus: "ecu" name: "ECU_Steer" drop {} } stop { count: 30 })");
  add("condition { channel: \"vehicle.body.forward_speed\" above: 0.2 for_s: 0.5 }",
      R"(message { bus: "ecu" name: "HIL_SteerFeedback" counter { mode: "random" } })");
  add(at + " } pulse { on_s: 0.02 off_s: 0.2", R"(bus { name: "ecu" silence {} })");
  add("after: \"f31\"", R"(channel { name: "vehicle.wheel.fl.speed" offset { value: 1 } })");
  add(at,
      R"(channel { name: "vehicle.wheel.fr.speed" gain { value: 0.5 } } stop { condition { channel: "vehicle.body.forward_speed" below: -1 } })");
  return out;
}

TEST(FaultBudget, ThirtyTwoFaultsOnAllocateNothing) {
  const std::string text = R"(description: "32 faults"
duration_s: 4
drive { straight { speeds { at_s: 0 speed: 1 } } }
)" + thirty_two_faults();
  config::ScenarioLoadResult loaded = config::load_scenario_text(
      {"faults.pbtxt", text}, HIL_SOURCE_DIR "/tests/tools/faults/e2e/rig.pbtxt");
  for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
  ASSERT_TRUE(loaded.ok());
  loaded.rig->can[0].uri = "virtual:fault_alloc";
  ASSERT_EQ(loaded.rig->faults.size() + loaded.scenario->faults.size(), 32U);
  const std::int64_t ticks = std::llround(loaded.scenario->duration_s * 4000);
  hil::testing::BudgetProbe probe(kWarmUpTicks, ticks - 1);
  const std::unique_ptr<session::Run> run =
      session::RunBuilder(
          {.loaded = session::LoadedRig{.name = "e2e",
                                        .settings = std::move(*loaded.rig),
                                        .scenario = std::move(loaded.scenario)},
           .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
           .quiet = true,
           .extra_stages = [&probe](TickPlan& plan,
                                    Rig&) { plan.add(Slot::tick_counter, "probe", probe); }})
          .build();
  ASSERT_EQ(run->run_until(ticks).ticks, ticks);

  EXPECT_EQ(probe.after.allocations - probe.before.allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(probe.after.faults - probe.before.faults, 0);
  }
  std::size_t on = 0;
  for (const FaultReport& r : run->faults->report()) on += r.first_tick >= 0 ? 1 : 0;
  EXPECT_GE(on, 31U) << format_faults(run->faults->report());
}

}  // namespace
}  // namespace hil::runtime
