// Model exchange (docs/fmu.md "Model exchange"): the test FMUs of tests/fmu/me/ run by
// `hilsim fmu simulate` (session::simulate_fmu and the CLI) against their closed forms — the
// bouncing ball's analytic bounce times (FMI 2 and 3), a time event hit exactly at 1.3 s, the
// explicit solvers' discrete solution of Dahlquist's equation and their stability bound, an
// FMI 3 periodic clock's partition — and what is refused, with its message.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/fmu/fmu.hpp"
#include "io/fmu/fmu_me.hpp"
#include "io/fmu/fmu_me_model.hpp"
#include "tests/fmu/fmu_me_csv.hpp"
#include "tests/fmu/hilsim_command.hpp"
#include "tools/session/fmu/fmu_simulate.hpp"

namespace hil::io::fmu {
namespace {

using fmu_testing::Csv;
using fmu_testing::hilsim;
using fmu_testing::parse_csv;

std::string me_fmu(const std::string& model, int version) {
  return fmt::format("{}/{}_me_fmi{}.fmu", HIL_FMU_DIR, model, version);
}

Csv simulate(const std::string& file, session::FmuSimulateSpec spec) {
  const auto f = Fmu::load(file);
  return parse_csv(session::simulate_fmu(*f, spec).csv);
}

/// The ball's analytic bounce times below `until` (g, e, h0 and v_min of the test FMU):
/// t1 = sqrt(2·h0/g), t_{k+1} = t_k + 2·e^k·v1/g while the rebound e^k·v1 ≥ v_min.
std::vector<double> analytic_bounces(double until) {
  const double g = 9.81;
  const double e = 0.7;
  const double t1 = std::sqrt(2.0 * 1.0 / g);
  const double v1 = g * t1;
  std::vector<double> t{t1};
  for (int k = 1; std::pow(e, k) * v1 >= 0.1 && t.back() < until; ++k) {
    t.push_back(t.back() + 2.0 * std::pow(e, k) * v1 / g);
  }
  while (!t.empty() && t.back() > until) t.pop_back();
  return t;
}

/// The distinct values a column takes, in order (the bounce times in last_bounce).
std::vector<double> changes(const std::vector<double>& column) {
  std::vector<double> out;
  for (std::size_t i = 1; i < column.size(); ++i) {
    if (column[i] != column[i - 1]) out.push_back(column[i]);
  }
  return out;
}

class MeBouncingBall : public ::testing::TestWithParam<int> {};

TEST_P(MeBouncingBall, BouncesAtTheAnalyticTimesWithBisection) {
  const Csv csv = simulate(me_fmu("bouncing_ball", GetParam()),
                           {.stop_time = 2.4, .step = 0.01, .solver = MeSolver::rk4});
  const std::vector<double> expected = analytic_bounces(2.4);
  ASSERT_GE(expected.size(), 8U);
  const std::vector<double> bounces = changes(csv["last_bounce"]);
  ASSERT_EQ(bounces.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    // RK4 is exact on the parabola; the bisection brackets each crossing to 1e-12 s
    EXPECT_NEAR(bounces[k], expected[k], 1e-9) << "bounce " << k + 1;
  }
  EXPECT_EQ(csv["bounces"].back(), static_cast<double>(expected.size()));
  // Rows at the output interval, the ball above ground in all of them
  EXPECT_EQ(csv.rows(), 241U);
  for (const double h : csv["h"]) EXPECT_GE(h, -1e-9);
}

TEST_P(MeBouncingBall, AtTheStepsEndAnEventIsLateByLessThanAStep) {
  // EventLocation::step_end: the bounce at the end of the step in which h crossed 0
  const auto f = Fmu::load(me_fmu("bouncing_ball", GetParam()));
  f->instantiate("ball", 0.0, std::nullopt);
  f->exit_initialization();
  ModelExchange& me = *f->model_exchange();
  me.set_event_location(EventLocation::step_end);
  const double h = 0.01;
  for (int i = 0; i < 50; ++i) ASSERT_LE(f->do_step(i * h, h), 1);
  const double t1 = std::sqrt(2.0 / 9.81);  // 0.4515 s
  ASSERT_FALSE(me.event_times().empty());
  EXPECT_EQ(me.event_times().front(), std::ceil(t1 / h) * h);
  EXPECT_GE(me.event_times().front() - t1, 0.0);
  EXPECT_LT(me.event_times().front() - t1, h);
}

INSTANTIATE_TEST_SUITE_P(Fmi, MeBouncingBall, ::testing::Values(2, 3),
                         [](const auto& p) { return fmt::format("fmi{}", p.param); });

class MeTimeEvent : public ::testing::TestWithParam<int> {};

TEST_P(MeTimeEvent, TheStepAt1_3IsHitExactly) {
  // With a step of 0.25 s the event at 1.3 s splits the step [1.25, 1.5]: x = max(0, t − 1.3)
  // is exact only if the event is hit exactly
  const Csv csv = simulate(me_fmu("time_event", GetParam()),
                           {.stop_time = 2.0, .step = 0.25, .solver = MeSolver::rk4});
  ASSERT_EQ(csv.rows(), 9U);
  for (std::size_t i = 0; i < csv.rows(); ++i) {
    const double t = csv["time"][i];
    EXPECT_EQ(csv["y"][i], t >= 1.3 ? 1.0 : 0.0) << t;
    EXPECT_NEAR(csv["x"][i], std::max(0.0, t - 1.3), 1e-12) << t;
  }
  // And with Euler, at a step that has 1.3 as a step's end (13 × 0.1)
  const Csv euler = simulate(me_fmu("time_event", GetParam()),
                             {.stop_time = 2.0, .step = 0.1, .solver = MeSolver::euler});
  EXPECT_NEAR(euler["x"].back(), 0.7, 1e-12);
  EXPECT_EQ(euler["y"][13], 1.0);  // the row at 1.3: after the event
  EXPECT_EQ(euler["y"][12], 0.0);
}

TEST_P(MeTimeEvent, AnEndAskedForInEventModeEndsTheOutputThere) {
  const auto f = Fmu::load(me_fmu("time_event", GetParam()));
  const session::FmuSimulation r =
      session::simulate_fmu(*f, {.stop_time = 3.0, .step = 0.1, .set = {{"terminate_at", "1.55"}}});
  ASSERT_EQ(r.terminated_at, std::optional<double>(1.55));
  const Csv csv = parse_csv(r.csv);
  EXPECT_EQ(csv["time"].back(), 1.55);  // the end row, between output points
  EXPECT_NEAR(csv["x"].back(), 0.25, 1e-12);
  EXPECT_EQ(csv.rows(), 17U);  // 0 … 1.5, then 1.55
}

TEST_P(MeTimeEvent, AStepEventAskedByCompletedIntegratorStepIsHandled) {
  // Every 3rd completed step asks for event mode: steps 3, 6, 9 of 0.1 s before the time event
  const auto f = Fmu::load(me_fmu("time_event", GetParam()));
  const Csv csv =
      parse_csv(session::simulate_fmu(
                    *f, {.stop_time = 0.9, .step = 0.1, .set = {{"step_events_every", "3"}}})
                    .csv);
  EXPECT_EQ(csv["step_events"].back(), 3.0);
  EXPECT_EQ(csv["step_events"][5], 1.0);  // at 0.5 s: step 3 only
  EXPECT_EQ(f->model_exchange()->counts().step_events, 3U);
}

INSTANTIATE_TEST_SUITE_P(Fmi, MeTimeEvent, ::testing::Values(2, 3),
                         [](const auto& p) { return fmt::format("fmi{}", p.param); });

/// RK4's and Euler's amplification of y' = −k·y over one step h: R(−k·h).
double amplification(MeSolver s, double z) {
  if (s == MeSolver::euler) return 1.0 + z;
  return 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
}

TEST(MeDahlquist, EachSolverGivesItsDiscreteSolutionAndItsStabilityBound) {
  for (const int version : {2, 3}) {
    for (const MeSolver s : {MeSolver::euler, MeSolver::rk4}) {
      // k·h on either side of the bound: RK4 2.785, Euler 2
      const double bound = s == MeSolver::rk4 ? 2.785 : 2.0;
      for (const double kh : {0.1, bound - 0.1, bound + 0.1}) {
        const double k = 100.0;
        const double h = kh / k;
        const int n = 40;
        const Csv csv =
            simulate(me_fmu("dahlquist", version),
                     {.stop_time = n * h, .step = h, .set = {{"k", "100"}}, .solver = s});
        const double expected = std::pow(amplification(s, -kh), n);
        EXPECT_NEAR(csv["y"].back() / expected, 1.0, 1e-9) << "fmi" << version << " kh " << kh;
        // Stable below the bound (|y| decays), unstable above (|y| grows)
        EXPECT_EQ(std::abs(csv["y"].back()) < 1.0, kh < bound) << "kh " << kh;
      }
    }
  }
}

TEST(MeDahlquist, StatesThatAreNotFiniteFailTheStepWithAReason) {
  try {
    (void)simulate(
        me_fmu("dahlquist", 2),
        {.stop_time = 100, .step = 0.1, .set = {{"k", "1000"}}, .solver = MeSolver::rk4});
    FAIL() << "expected an error";
  } catch (const FmuError& e) {
    EXPECT_NE(std::string(e.what()).find("failed with status 3 (error): the continuous states are "
                                         "not finite (a step beyond the solver's stability bound"),
              std::string::npos)
        << e.what();
  }
}

TEST(MeClock, ThePeriodicClocksPartitionRunsAtEveryTick) {
  // Ticks at 0, 0.1, 0.2, …: with a step of 0.01 at step ends; with 0.03 inside steps
  for (const double step : {0.01, 0.03}) {
    const Csv csv =
        simulate(me_fmu("clocked", 3), {.stop_time = 0.99, .step = step, .solver = MeSolver::rk4});
    for (std::size_t i = 0; i < csv.rows(); ++i) {
      const double t = csv["time"][i];
      const double k = std::floor(t / 0.1 + 1e-9);
      EXPECT_EQ(csv["ticks"][i], k + 1) << "t " << t << " step " << step;
      EXPECT_NEAR(csv["sample"][i], 0.1 * k, 1e-12) << "t " << t << " step " << step;
      EXPECT_NEAR(csv["x"][i], t, 1e-12);
    }
  }
}

TEST(MeInfo, SaysWhatTheFmuNeeds) {
  const auto ball = Fmu::load(me_fmu("bouncing_ball", 2));
  const std::string info = session::describe_fmu(*ball);
  EXPECT_NE(info.find("bouncing_ball: FMI 2.0 model exchange"), std::string::npos) << info;
  EXPECT_NE(info.find("model exchange: model identifier bouncing_ball, 2 continuous states, 1 "
                      "event indicator, clocks: none"),
            std::string::npos)
      << info;
  const auto clocked = Fmu::load(me_fmu("clocked", 3));
  const std::string c = session::describe_fmu(*clocked);
  EXPECT_NE(c.find("1 continuous state, 0 event indicators, clocks: tick (vr 100, input, "
                   "constant, every 0.1 s from 0 s): ticked"),
            std::string::npos)
      << c;
}

/// A model description with one clock and the interfaces `interfaces`.
ModelDescription with_clock(const std::string& interfaces, const std::string& clock) {
  return parse_model_description(fmt::format(R"(<?xml version="1.0"?>
<fmiModelDescription fmiVersion="3.0" modelName="m" instantiationToken="t">
  {}
  <ModelVariables>
    {}
  </ModelVariables>
</fmiModelDescription>
)",
                                             interfaces, clock),
                                 "m.fmu/modelDescription.xml");
}

std::string clock_refusal(const std::string& interfaces, const std::string& clock, bool as_me) {
  try {
    check_clocks(with_clock(interfaces, clock), as_me, "m.fmu");
  } catch (const FmuError& e) {
    return e.what();
  }
  return "";
}

TEST(MeClock, WhatCannotBeTickedIsRefusedNamingWhatIsUnsupported) {
  const std::string me = R"(<ModelExchange modelIdentifier="m"/>)";
  const std::string cs = R"(<CoSimulation modelIdentifier="m"/>)";
  const std::string periodic =
      R"(<Clock name="c" valueReference="1" causality="input" intervalVariability="constant" intervalDecimal="0.1"/>)";
  EXPECT_EQ(clock_refusal(me, periodic, true), "");
  EXPECT_EQ(clock_refusal(cs, periodic, false),
            "m.fmu/modelDescription.xml:5: clock \"c\": clocks in co-simulation (event mode) are "
            "not supported; hilsim ticks only periodic input clocks of constant interval "
            "(causality=\"input\", intervalVariability=\"constant\") of a model-exchange FMU");
  EXPECT_NE(
      clock_refusal(
          me,
          R"(<Clock name="c" valueReference="1" causality="input" intervalVariability="triggered"/>)",
          true)
          .find("clock \"c\": intervalVariability=\"triggered\" is not supported"),
      std::string::npos);
  EXPECT_NE(
      clock_refusal(
          me,
          R"(<Clock name="c" valueReference="1" causality="output" intervalVariability="constant" intervalDecimal="1"/>)",
          true)
          .find("clock \"c\": causality=\"output\" is not supported"),
      std::string::npos);
  EXPECT_NE(
      clock_refusal(
          me,
          R"(<Clock name="c" valueReference="1" causality="input" intervalVariability="constant"/>)",
          true)
          .find("no interval above 0"),
      std::string::npos);
  // Scheduled execution only
  const ModelDescription md = with_clock("", "");
  const std::string xml =
      R"(<fmiModelDescription fmiVersion="3.0"><ScheduledExecution modelIdentifier="m"/></fmiModelDescription>)";
  try {
    check_interfaces(md, xml, "m.fmu");
    FAIL();
  } catch (const FmuError& e) {
    EXPECT_EQ(std::string(e.what()),
              "m.fmu: only a <ScheduledExecution> interface: scheduled execution is not "
              "supported; hilsim runs co-simulation and model-exchange FMUs");
  }
}

TEST(MeCommand, SimulateWithASolverAndRefusals) {
  const auto r =
      hilsim(fmt::format("fmu simulate {} --solver euler --stop-time 0.02 --step 0.01 "
                         "--set k=10 2>/dev/null",
                         me_fmu("dahlquist", 3)));
  ASSERT_EQ(r.status, 0) << r.output;
  const Csv csv = parse_csv(r.output.substr(r.output.find("\"time\"") != std::string::npos
                                                ? r.output.find("\"time\"")
                                                : r.output.find("time")));
  ASSERT_EQ(csv.rows(), 3U) << r.output;
  EXPECT_NEAR(csv["y"][2], 0.81, 1e-15);  // (1 − k·h)² with k·h = 0.1
  const auto bad = hilsim(fmt::format("fmu simulate {} --solver midpoint", me_fmu("dahlquist", 3)));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--solver midpoint: expected euler or rk4"), std::string::npos)
      << bad.output;
  const auto cs =
      hilsim(fmt::format("fmu simulate {}/first_order_fmi2.fmu --solver rk4", HIL_FMU_DIR));
  EXPECT_EQ(cs.status, 2);
  EXPECT_NE(cs.output.find("no <ModelExchange> interface (co-simulation only)"), std::string::npos)
      << cs.output;
}

}  // namespace
}  // namespace hil::io::fmu
