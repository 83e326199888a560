// The fault engine in the loop, in virtual time, on RAVON with a counter and CRC on
// HIL_SteerFeedback (tests/tools/faults/e2e): what the built-in ECU counts is exactly what the
// faults did — frames lost, timeouts, counter and CRC errors — and faults start at
// ceil(at_s / period) or one tick after their condition holds for its debounce.

#include <fstream>
#include <iterator>

#include "tests/runtime/faults/fault_run.hpp"

namespace hil::runtime {
namespace {

using fault_testing::FaultRun;
using fault_testing::kRig;
using fault_testing::Probe;

TEST(FaultsInTheLoop, ADroppedMessageIsExactlyItsFramesAndOneTimeout) {
  FaultRun clean("");
  clean.go();
  FaultRun run(R"(faults {
  name: "lost wheel speeds"
  start { at_s: 1 }
  stop { duration_s: 0.1 }
  message { bus: "ecu" name: "HIL_WheelSpeeds" drop {} }
})");
  run.go();
  const auto& c = run.ecu("HIL_WheelSpeeds");
  EXPECT_EQ(FaultRun::get(clean.ecu("HIL_WheelSpeeds").frames) - FaultRun::get(c.frames), 10U);
  EXPECT_EQ(FaultRun::get(c.timeouts), 1U);
  EXPECT_EQ(FaultRun::get(clean.ecu("HIL_WheelSpeeds").timeouts), 0U);
  const FaultReport r = run.engine().report().at(0);
  EXPECT_EQ(r.count, 10U);
  EXPECT_EQ(r.first_tick, 4000);  // 1 s at 250 µs
  EXPECT_EQ(r.last_tick, 4399);   // 100 ms
  EXPECT_EQ(r.what, "drop of HIL_WheelSpeeds on ecu");
}

TEST(FaultsInTheLoop, AFrozenCounterIsCounterErrorsOnly) {
  FaultRun run(R"(faults {
  name: "frozen"
  start { at_s: 1 }
  stop { count: 7 }
  message { bus: "ecu" name: "HIL_SteerFeedback" counter { mode: "freeze" } }
})");
  run.go();
  const auto& c = run.ecu("HIL_SteerFeedback");
  EXPECT_EQ(FaultRun::get(c.counter_errors), 7U);
  EXPECT_EQ(FaultRun::get(c.crc_errors), 0U);
  EXPECT_EQ(FaultRun::get(c.length_errors), 0U);
  EXPECT_EQ(FaultRun::get(c.counter_jumps), 1U);  // after it: the correct count again, 7 ahead
  EXPECT_EQ(run.engine().report().at(0).count, 7U);
}

TEST(FaultsInTheLoop, ABadCrcIsCrcErrorsOnly) {
  FaultRun run(R"(faults {
  name: "bad crc"
  start { at_s: 1 }
  stop { count: 5 }
  message { bus: "ecu" name: "HIL_SteerFeedback" crc { mode: "offset" value: 1 } }
})");
  run.go();
  const auto& c = run.ecu("HIL_SteerFeedback");
  EXPECT_EQ(FaultRun::get(c.crc_errors), 5U);
  EXPECT_EQ(FaultRun::get(c.counter_errors), 0U);
  // the refused frames' counters never reached the ECU: it sees the counter jump once
  EXPECT_EQ(FaultRun::get(c.counter_jumps), 1U);
}

// The scenario the cross-process test runs (fault_cannelloni_test.py), in process: the same
// counts the ECU process reports over cannelloni.
TEST(FaultsInTheLoop, TheCrossProcessScenarioInProcess) {
  std::ifstream in(HIL_SOURCE_DIR "/tests/tools/faults/e2e/counter_and_crc.pbtxt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text = text.substr(text.find("faults {"));  // its faults on FaultRun's 3 s straight run
  FaultRun run(text);
  run.go();
  const auto& c = run.ecu("HIL_SteerFeedback");
  EXPECT_EQ(FaultRun::get(c.counter_errors), 7U);
  EXPECT_EQ(FaultRun::get(c.crc_errors), 5U);
  EXPECT_EQ(FaultRun::get(c.length_errors), 0U);
}

// The shipped scenario with a fault: the ECU notices the loss once, holds, and the vehicle
// still drives the course within its gates.
TEST(FaultsInTheLoop, TheShippedLaneChangeWithLostWheelSpeeds) {
  FaultRun run(HIL_SOURCE_DIR "/hil_rigs/scenarios/lane_change_lost_wheel_speeds.pbtxt",
               HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  run.go();
  EXPECT_EQ(FaultRun::get(run.ecu("HIL_WheelSpeeds").timeouts), 1U);
  EXPECT_EQ(run.engine().report().at(0).count, 50U);  // 0.5 s of a 10 ms message
  EXPECT_GT(run.builtin_ecu().holding_cycles(), 1U);
  const runtime::ScenarioVerdict v = run.judge().verdict();
  for (const runtime::GateResult& g : v.gates) EXPECT_TRUE(g.passed) << g.name << ": " << g.detail;
}

TEST(FaultsInTheLoop, CounterContinuesAsCanoeSays) {
  for (const auto& [how, jumps] :
       {std::pair{"correct", 2U}, std::pair{"last_valid", 2U}, std::pair{"last", 1U}}) {
    FaultRun run(std::string(R"(faults {
  name: "counter"
  start { at_s: 1 }
  stop { count: 3 }
  message { bus: "ecu" name: "HIL_SteerFeedback" counter { mode: "value" value: 9 continue: ")") +
                 how + R"(" } }
})");
    run.go();
    const auto& c = run.ecu("HIL_SteerFeedback");
    // three frames with counter 9: the first a jump, the next two repeats; then "correct"
    // jumps to where the count is, "last_valid" back to before the fault (a jump again),
    // "last" goes on from 9 (no jump)
    EXPECT_EQ(FaultRun::get(c.counter_errors), 2U) << how;
    EXPECT_EQ(FaultRun::get(c.crc_errors), 0U) << how;
    EXPECT_EQ(FaultRun::get(c.counter_jumps), jumps) << how;
  }
}

TEST(FaultsInTheLoop, OnsetIsTheCeilingTickAndAConditionActsOneTickAfterItsDebounce) {
  FaultRun run(R"(faults {
  name: "late"
  start { at_s: 1.0001 }
  stop { count: 1 }
  bus { name: "ecu" silence {} }
}
faults {
  name: "fast"
  start { condition { channel: "vehicle.body.forward_speed" above: 0.5 for_s: 0.01 } }
  stop { duration_s: 0.5 }
  channel { name: "vehicle.imu.gyro.z" offset { value: 1 } }
})");
  Probe speed(run.rig().table(), "vehicle.body.forward_speed", "");
  speed.threshold = 0.5;
  run.add(Slot::judge, speed);
  run.go();
  const std::vector<FaultReport> r = run.engine().report();
  EXPECT_EQ(r.at(0).first_tick, 4001);  // ceil(1.0001 s / 250 µs) = ceil(4000.4)
  EXPECT_EQ(r.at(0).last_tick, 4001);
  ASSERT_GT(speed.first_above, 0);
  // seen at the next tick's fault_in, then held 40 ticks
  EXPECT_EQ(r.at(1).first_tick, speed.first_above + 1 + 40);
}

TEST(FaultsInTheLoop, AChannelFaultKeepsTheTruthAndGivesItBack) {
  FaultRun run(R"(faults {
  name: "gyro offset"
  start { at_s: 1 }
  stop { duration_s: 0.5 }
  channel { name: "vehicle.imu.gyro.z" offset { value: 0.25 } }
})");
  Probe during(run.rig().table(), "vehicle.imu.gyro.z", "fault.gyro_offset.original");
  during.at_tick = 5000;
  run.add(Slot::peer_tx, during);
  run.go();
  EXPECT_NEAR(during.value_at - during.truth_at, 0.25, 1e-12);
  EXPECT_NEAR(during.max_difference, 0.25, 1e-12);  // never more, never accumulated
  EXPECT_EQ(run.engine().report().at(0).count, 2000U);
}

TEST(FaultsInTheLoop, TheFileIsCheckedWithLocatedErrors) {
  const config::ScenarioLoadResult loaded =
      config::load_scenario_text({"bad.pbtxt", R"(description: "x"
duration_s: 1
drive { straight { speeds { at_s: 0 speed: 1 } } }
faults { name: "a" message { bus: "ecu" name: "HIL_WheelSpeed" drop {} } }
faults { name: "a" channel { name: "vehicle.imu.gyro.z" } }
faults { name: "b" start { after: "c" } message { bus: "ecu" name: "ECU_Steer" crc {} } }
faults { name: "d" message { bus: "ecu" name: "HIL_WheelSpeeds" counter { mode: "freeze" } } }
)"},
                                 kRig);
  std::string all;
  for (const config::ConfigError& e : loaded.errors) all += e.to_string() + "\n";
  EXPECT_NE(all.find("bad.pbtxt:4:"), std::string::npos) << all;
  EXPECT_NE(all.find("did you mean HIL_WheelSpeeds?"), std::string::npos) << all;
  EXPECT_NE(all.find("faults[1].name: \"a\" is taken by faults[0]"), std::string::npos) << all;
  EXPECT_NE(all.find("faults[1].channel: no operation"), std::string::npos) << all;
  EXPECT_NE(all.find("faults[2].start.after: \"c\" is not another fault"), std::string::npos)
      << all;
  EXPECT_NE(all.find("only drop and delay apply to what it receives"), std::string::npos) << all;
  EXPECT_NE(all.find("faults[3].message.counter: HIL_WheelSpeeds has no alive_counter"),
            std::string::npos)
      << all;
}

}  // namespace
}  // namespace hil::runtime
