// The fault engine in the loop, in virtual time, on RAVON with a counter and CRC on
// HIL_SteerFeedback (tests/tools/faults/e2e): what the built-in ECU counts is exactly what the
// faults did — frames lost, timeouts, counter and CRC errors — and faults start at
// ceil(at_s / period) or one tick after their condition holds for its debounce.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config/rig_runtime.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"
#include "tools/faults/fault_engine.hpp"
#include "tools/scenario/scenario_settings.hpp"
#include "tools/session/rig_setup.hpp"
#include "tools/session/scenario_run.hpp"

namespace hil::faults {
namespace {

const std::string kRig = HIL_SOURCE_DIR "/tests/tools/faults/e2e/rig.pbtxt";

/// Watches a channel after the models (and after fault_out: `faulted`), per tick.
class Probe final : public rt::Task {
 public:
  Probe(const rt::ChannelTable& table, const std::string& channel, const std::string& truth)
      : table_(table), channel_(table.resolve(channel)), truth_(table.find(truth)) {}
  void update(const rt::TickContext& /*c*/) noexcept override {}
  void write(const rt::TickContext& c) noexcept override {
    const double v = table_.get(channel_);
    if (first_above < 0 && v > threshold) first_above = c.tick;
    if (truth_) {
      const double t = table_.get(*truth_);
      max_difference = std::max(max_difference, std::abs(v - t));
      if (c.tick == at_tick) {
        value_at = v;
        truth_at = t;
      }
    }
  }
  double threshold = 1e300;
  std::int64_t first_above = -1;
  std::int64_t at_tick = -1;
  double value_at = NAN, truth_at = NAN, max_difference = 0.0;

 private:
  const rt::ChannelTable& table_;
  rt::ChannelId channel_;
  std::optional<rt::ChannelId> truth_;
};

struct FaultRun {
  explicit FaultRun(const std::string& faults, const std::string& scenario_extra = "") {
    const std::string text = R"(description: "faults"
duration_s: 3
drive { straight { speeds { at_s: 0 speed: 1 } } }
)" + faults + scenario_extra;
    loaded = scenario::load_scenario_text({"faults.pbtxt", text}, kRig);
    for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
    if (!loaded.ok()) return;
    static int n = 0;
    loaded.rig->can[0].uri = "virtual:fault_run_" + std::to_string(n++);
    std::vector<config::FaultSettings> all = session::run_faults(*loaded.rig, loaded.scenario);
    runtime = std::make_unique<config::RigRuntime>(
        *loaded.rig, config::RuntimeOptions{.extra_output_channels = FaultEngine::channels(all)});
    scenario = std::make_unique<session::ScenarioRun>(*runtime, *loaded.scenario);
    scenario->add_tasks(plan);
    engine = std::make_unique<FaultEngine>(std::move(all), *runtime, 1);
    engine->add_tasks(plan);
  }
  void go() {
    rt::VirtualClock clock;
    rt::Executive exec(loaded.rig->executive, plan.entries(), clock);
    (void)exec.run(scenario->ticks());
  }
  /// The ECU's counters of a message the rig sends.
  const io::can::MessageCounters& ecu(const std::string& message) const {
    const ecu::VirtualEcu& e = *scenario->ecu();
    for (std::size_t i = 0; i < e.spec().rx.size(); ++i) {
      if (e.spec().rx[i].message == message) return e.bus().rx_counters(i);
    }
    throw std::runtime_error("no message " + message);
  }
  static std::uint64_t get(const std::atomic<std::uint64_t>& a) { return a.load(); }

  scenario::ScenarioLoadResult loaded;
  std::unique_ptr<config::RigRuntime> runtime;
  std::unique_ptr<session::ScenarioRun> scenario;
  std::unique_ptr<FaultEngine> engine;
  rt::TickPlan plan;
};

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
  const FaultReport r = run.engine->report().at(0);
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
  EXPECT_EQ(run.engine->report().at(0).count, 7U);
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
  Probe speed(run.runtime->table(), "vehicle.body.forward_speed", "");
  speed.threshold = 0.5;
  run.plan.add(rt::Slot::judge, "probe", speed);
  run.go();
  const std::vector<FaultReport> r = run.engine->report();
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
  Probe during(run.runtime->table(), "vehicle.imu.gyro.z", "fault.gyro_offset.original");
  during.at_tick = 5000;
  run.plan.add(rt::Slot::peer_tx, "during", during);
  run.go();
  EXPECT_NEAR(during.value_at - during.truth_at, 0.25, 1e-12);
  EXPECT_NEAR(during.max_difference, 0.25, 1e-12);  // never more, never accumulated
  EXPECT_EQ(run.engine->report().at(0).count, 2000U);
}

TEST(FaultsInTheLoop, TheFileIsCheckedWithLocatedErrors) {
  const scenario::ScenarioLoadResult loaded =
      scenario::load_scenario_text({"bad.pbtxt", R"(description: "x"
duration_s: 1
drive { straight { speeds { at_s: 0 speed: 1 } } }
faults { name: "a" message { bus: "ecu" name: "HIL_WheelSpeed" drop {} } }
faults { name: "a" channel { name: "vehicle.imu.gyro.z" } }
faults { name: "b" start { after: "c" } message { bus: "ecu" name: "ECU_Steer" crc {} } }
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
}

}  // namespace
}  // namespace hil::faults
