// The not_bogged_down gate (runtime/scenario/scenario_judge.hpp): slow with the wheels
// spinning for hold_s, or a wheel sunk beyond max_sinkage, fails and says so with the sinkage
// and slip; a vehicle held at rest, or one that only passes slowly through, does not.

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "runtime/scenario/scenario_judge.hpp"

namespace hil {
namespace {

config::ScenarioSpec with_bog_gate(config::NotBoggedDownGate gate) {
  config::ScenarioSpec s;
  s.duration_s = 10.0;
  s.drive.path = {{.x = 0, .y = 0}, {.x = 100, .y = 0}};
  s.gates.push_back({.name = "soil", .check = gate});
  return s;
}

/// Observations every 10 ms to `until` of speed, sinkage and slip.
void feed(runtime::ScenarioJudge& j, double from, double until, double speed, double sinkage,
          double slip) {
  for (double t = from; t <= until + 1e-9; t += 0.01) {
    j.observe({.time = t, .x = speed * t, .speed = speed, .sinkage = sinkage, .slip = slip});
  }
}

TEST(BogGate, SpinningInPlaceForHoldSecondsFailsWithTheSinkageAndSlip) {
  runtime::ScenarioJudge j(with_bog_gate({.min_speed = 0.3, .min_slip = 0.5, .hold_s = 2.0}));
  feed(j, 0.0, 3.0, 2.0, 0.08, 0.1);     // driving
  feed(j, 3.01, 6.0, 0.05, 0.21, 0.97);  // stuck from 3.01 s
  const runtime::GateResult g = j.verdict().gates[0];
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.kind, "not_bogged_down");
  EXPECT_NE(g.detail.find("bogged down at 5.0"), std::string::npos) << g.detail;
  EXPECT_NE(g.detail.find("mean slip 0.97"), std::string::npos) << g.detail;
  EXPECT_NE(g.detail.find("sinkage 0.210 m"), std::string::npos) << g.detail;
  EXPECT_EQ(j.live(0).state, runtime::LiveMark::State::failed);
}

TEST(BogGate, SinkingBeyondTheLimitFails) {
  runtime::ScenarioJudge j(with_bog_gate({.max_sinkage = 0.2}));
  feed(j, 0.0, 1.0, 2.0, 0.1, 0.2);
  feed(j, 1.01, 2.0, 2.0, 0.25, 0.3);
  const runtime::GateResult g = j.verdict().gates[0];
  EXPECT_FALSE(g.passed);
  EXPECT_NE(g.detail.find("a wheel sank 0.250 m (allowed 0.200 m)"), std::string::npos) << g.detail;
}

TEST(BogGate, HeldAtRestOrSlowForLessThanHoldPasses) {
  runtime::ScenarioJudge j(with_bog_gate({.min_speed = 0.3, .min_slip = 0.5, .hold_s = 2.0}));
  feed(j, 0.0, 3.0, 0.0, 0.05, 0.0);    // parked: not spinning
  feed(j, 3.01, 4.5, 0.1, 0.12, 0.9);   // stuck for 1.5 s only
  feed(j, 4.51, 8.0, 1.5, 0.1, 0.2);    // then away
  feed(j, 8.01, 10.0, 0.1, 0.1, -1.0);  // braking to a stop: slip −1, not spinning
  const runtime::GateResult g = j.verdict().gates[0];
  EXPECT_TRUE(g.passed) << g.detail;
  EXPECT_DOUBLE_EQ(g.value, 0.12);  // the deepest sinkage
  EXPECT_NE(g.detail.find("deepest sinkage 0.120 m"), std::string::npos) << g.detail;
}

TEST(BogGate, UnknownSinkageAndSlipNeverBogDown) {
  // The stand-alone ECU's judge has no sinkage or slip (NaN)
  runtime::ScenarioJudge j(with_bog_gate({.max_sinkage = 0.2}));
  feed(j, 0.0, 5.0, 0.0, std::numeric_limits<double>::quiet_NaN(),
       std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(j.verdict().gates[0].passed);
}

}  // namespace
}  // namespace hil
