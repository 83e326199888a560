// The scenario's rig side, tick by tick: events step and ramp their channels from the value
// they had and hold them; the judge's gates pass and fail on synthetic observations exactly
// where their definitions say.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "rt_core/channel_table.hpp"
#include "runtime/scenario/scenario_events.hpp"
#include "runtime/scenario/scenario_judge.hpp"

namespace hil::runtime {
namespace {

constexpr rt::Nanoseconds kMs = rt::kMillisecond;

TEST(ScenarioEvents, StepsRampsAndHoldsByTick) {
  rt::ChannelTable table;
  const rt::ChannelId wind = table.add(
      {.name = "env.wind.speed", .unit = "m/s", .direction = rt::Direction::input, .initial = 1.0});
  const rt::ChannelId other =
      table.add({.name = "env.other", .unit = "-", .direction = rt::Direction::input});
  table.freeze();
  // 1 ms ticks: at 10 ms ramp to 11 over 10 ms; at 30 ms step to 0; later ramp back up
  runtime::ScenarioEvents events(
      {{.at_s = 0.010, .channel = "env.wind.speed", .value = 11.0, .ramp_s = 0.010},
       {.at_s = 0.040, .channel = "env.wind.speed", .value = 5.0, .ramp_s = 0.004},
       {.at_s = 0.030, .channel = "env.wind.speed", .value = 0.0},
       {.at_s = 0.005, .channel = "env.other", .value = 7.0}},
      table, kMs);
  std::vector<double> w;
  for (std::int64_t k = 0; k < 50; ++k) {
    table.set(other, -1.0);  // someone else writes it each tick: the event wins after 5 ms
    events.run({.tick = k, .time = k * kMs, .dt = kMs, .dt_s = 1e-3});
    w.push_back(table.get(wind));
    EXPECT_EQ(table.get(other), k < 5 ? -1.0 : 7.0) << k;
  }
  EXPECT_EQ(w[9], 1.0);   // untouched before its first event
  EXPECT_EQ(w[10], 1.0);  // the ramp starts from the value the channel had
  EXPECT_DOUBLE_EQ(w[15], 6.0);
  EXPECT_EQ(w[20], 11.0);  // reached after 10 ticks
  EXPECT_EQ(w[29], 11.0);  // held
  EXPECT_EQ(w[30], 0.0);   // a step (the later event in time, earlier in the file)
  EXPECT_EQ(w[40], 0.0);
  EXPECT_DOUBLE_EQ(w[42], 2.5);
  EXPECT_EQ(w[44], 5.0);
  EXPECT_EQ(events.started(), 4U);
}

TEST(ScenarioEvents, AnUnknownChannelIsRefusedAtSetup) {
  rt::ChannelTable table;
  (void)table.add({.name = "env.wind.speed", .unit = "m/s", .direction = rt::Direction::input});
  table.freeze();
  EXPECT_THROW(
      runtime::ScenarioEvents({{.at_s = 0, .channel = "env.wind.sped", .value = 1}}, table, kMs),
      std::out_of_range);
}

config::ScenarioSpec with_gate(config::GateCheck check) {
  config::ScenarioSpec s;
  s.duration_s = 10.0;
  s.drive.path = {{.x = 0, .y = 0}, {.x = 100, .y = 0}};
  s.footprint = {.x_front = 1.0, .x_rear = -1.0, .half_width = 0.5};
  s.gates.push_back({.name = "g", .check = check});
  return s;
}

TEST(ScenarioJudge, LaneGateChecksTheFootprintsCorners) {
  const config::ScenarioSpec s =
      with_gate(config::LaneGate{.x_min = 10, .x_max = 20, .y_min = -1.0, .y_max = 1.0});
  runtime::ScenarioJudge inside(s);
  for (double x = 0; x < 30; x += 0.1) inside.observe({.time = x, .x = x, .y = 0.4});
  EXPECT_TRUE(inside.verdict().passed);
  EXPECT_NE(inside.verdict().gates[0].detail.find("0.100"), std::string::npos)
      << inside.verdict().gates[0].detail;  // 1 − 0.4 − 0.5
  // Yawed by 0.2 rad at y = 0.4: the front-left corner sits at 0.4 + sin(0.2) + 0.5 cos(0.2),
  // 0.089 m beyond the lane, while the CG's own margin would be 0.1 m
  runtime::ScenarioJudge yawed(s);
  yawed.observe({.time = 0, .x = 15, .y = 0.4, .yaw = 0.2});
  const runtime::ScenarioVerdict v = yawed.verdict();
  EXPECT_FALSE(v.passed);
  const double over = 0.4 + std::sin(0.2) + 0.5 * std::cos(0.2) - 1.0;
  EXPECT_NE(v.gates[0].detail.find(fmt::format("{:.3f}", over)), std::string::npos)
      << v.gates[0].detail;
  runtime::ScenarioJudge never(s);
  never.observe({.time = 0, .x = 0});
  EXPECT_FALSE(never.verdict().passed);  // never reached the lane: not a pass
}

// Issue 42: a run that ends with the vehicle inside a section has not passed it yet — a
// corner could still leave the lane — and neither the verdict nor the live mark says so.
TEST(ScenarioJudge, ALaneIsDecidedOnlyOnceTheWholeFootprintHasLeftIt) {
  using State = runtime::LiveMark::State;
  const config::ScenarioSpec s =
      with_gate(config::LaneGate{.x_min = 11, .x_max = 26, .y_min = -1.0, .y_max = 1.0});
  runtime::ScenarioJudge j(s);
  // At 1 m/s, observed every 20 ms, to x (and t) `until`
  int k = 0;
  const auto drive_to = [&](double until) {
    for (; k * 0.02 <= until + 1e-9; ++k) j.observe({.time = k * 0.02, .x = k * 0.02});
  };
  drive_to(18.98);
  const runtime::GateResult inside = j.verdict().gates[0];
  EXPECT_FALSE(inside.reached);
  EXPECT_FALSE(inside.passed);
  EXPECT_EQ(inside.detail,
            "not decided: the run ended at 18.98 s with the vehicle in the section (its rear at "
            "x 17.98 m, the section ends at 26.0 m); smallest clearance so far 0.500 m");
  EXPECT_EQ(j.live(0).state, State::open);
  drive_to(26.9);  // the front is out, the rear (1 m behind the CG) not yet
  EXPECT_FALSE(j.verdict().gates[0].reached);
  EXPECT_EQ(j.live(0).state, State::open);
  drive_to(28.0);  // every corner past x_max: decided, passed
  const runtime::GateResult out = j.verdict().gates[0];
  EXPECT_TRUE(out.reached);
  EXPECT_TRUE(out.passed) << out.detail;
  EXPECT_NEAR(out.value, 0.5, 1e-9);  // 1 − the half width
  EXPECT_EQ(j.live(0).state, State::passed);
  EXPECT_GE(j.live(0).time, 27.0 - 1e-9);  // the first observation with the rear past 26 m
  EXPECT_LE(j.live(0).time, 27.02 + 1e-9);
  // A corner outside the lane decides at once, inside the section
  runtime::ScenarioJudge off(s);
  off.observe({.time = 0, .x = 15, .y = 0.6});
  EXPECT_TRUE(off.verdict().gates[0].reached);
  EXPECT_FALSE(off.verdict().gates[0].passed);
}

TEST(ScenarioJudge, SpeedGateNeedsTheBandHeldLongEnoughAndInTime) {
  const config::ScenarioSpec s = with_gate(
      config::SpeedReachedGate{.speed = 2.0, .tolerance = 0.04, .by_s = 5.0, .hold_s = 1.0});
  const auto run = [&](double reach_at, double leave_at) {
    runtime::ScenarioJudge j(s);
    for (double t = 0; t <= 10.0; t += 0.01) {
      const double v = t >= reach_at && t < leave_at ? 2.03 : 1.5;
      j.observe({.time = t, .speed = v});
    }
    return j.verdict().passed;
  };
  EXPECT_TRUE(run(4.0, 10.0));
  EXPECT_TRUE(run(4.99, 6.5));   // in the band by 5 s, held 1 s
  EXPECT_FALSE(run(5.2, 10.0));  // too late
  EXPECT_FALSE(run(4.0, 4.5));   // not held
}

// A failed hold says what was needed and what happened: the longest hold and where, or how
// close the speed came — never "0.000 m/s off" for a speed that was in the band.
TEST(ScenarioJudge, AFailedSpeedGateSaysTheLongestHoldAndWhere) {
  const config::ScenarioSpec s = with_gate(
      config::SpeedReachedGate{.speed = 2.0, .tolerance = 0.04, .by_s = 5.0, .hold_s = 1.0});
  const auto detail = [&](double reach_at, double leave_at) {
    runtime::ScenarioJudge j(s);
    for (int k = 0; k <= 1000; ++k) {
      const double t = k * 0.01;
      j.observe({.time = t, .speed = t >= reach_at && t < leave_at ? 2.03 : 1.5});
    }
    const runtime::GateResult g = j.verdict().gates[0];
    EXPECT_FALSE(g.passed);
    return g.detail;
  };
  const std::string wanted =
      "needed within 0.040 m/s of 2.000 m/s for 1.0 s from 5.0 s at the "
      "latest; ";
  EXPECT_EQ(detail(4.0, 4.5), wanted + "held at most 0.49 s, from 4.00 s");
  EXPECT_EQ(detail(5.2, 10.0), wanted + "held at most 4.79 s, from 5.20 s (after 5.0 s)");
  EXPECT_EQ(detail(99.0, 99.0), wanted + "never in the band: closest 0.500 m/s off, at 0.00 s");
}

TEST(ScenarioJudge, RollbackDistanceDeviationAndStop) {
  runtime::ScenarioJudge rollback(with_gate(config::NoRollbackGate{.max_m = 0.05}));
  for (const double x : {0.0, 0.5, 0.46, 0.8}) rollback.observe({.x = x});
  EXPECT_TRUE(rollback.verdict().passed);  // 4 cm back
  rollback.observe({.x = 0.7});
  EXPECT_FALSE(rollback.verdict().passed);  // 10 cm back

  runtime::ScenarioJudge distance(with_gate(config::DistanceReachedGate{.distance = 5, .by_s = 3}));
  distance.observe({.time = 2.9, .x = 4.9});
  distance.observe({.time = 3.1, .x = 5.1});
  EXPECT_FALSE(distance.verdict().passed);  // too late

  runtime::ScenarioJudge deviation(
      with_gate(config::MaxDeviationGate{.max_m = 0.2, .from_s = 1, .to_s = 3}));
  deviation.observe({.time = 0.5, .x = 1, .y = 0.5});  // before the window: ignored
  for (double t = 1; t <= 3.0; t += 0.5) deviation.observe({.time = t, .x = 2 * t, .y = -0.15});
  EXPECT_TRUE(deviation.verdict().passed);
  deviation.observe({.time = 2.9, .x = 6, .y = 0.25});
  EXPECT_FALSE(deviation.verdict().passed);

  ScenarioJudge stop(with_gate(config::StoppedGate{.by_s = 5, .max_speed = 0.05}));
  stop.observe({.time = 4, .speed = 1.0});
  EXPECT_FALSE(stop.verdict().passed);  // nothing observed after 5 s yet
  stop.observe({.time = 5, .speed = 0.01});
  EXPECT_TRUE(stop.verdict().passed);
  stop.observe({.time = 6, .speed = -0.06});  // rolled back afterwards
  EXPECT_FALSE(stop.verdict().passed);
}

// What the console shows while the run goes on: a gate decided mid-run is marked once, with
// the time of the decision; gates decided only at the end stay open.
TEST(ScenarioJudge, LiveMarksWhatIsDecidedDuringTheRun) {
  using State = runtime::LiveMark::State;
  runtime::ScenarioJudge lane(
      with_gate(config::LaneGate{.x_min = 10, .x_max = 20, .y_min = -1.0, .y_max = 1.0}));
  for (double x = 0; x < 15; x += 0.5) lane.observe({.time = x, .x = x, .y = 0.4});
  EXPECT_EQ(lane.live(0).state, State::open);
  lane.observe({.time = 15.5, .x = 15.5, .y = 0.8});  // a corner 0.3 m outside
  lane.observe({.time = 16, .x = 16, .y = 0.9});
  EXPECT_EQ(lane.live(0).state, State::failed);
  EXPECT_EQ(lane.live(0).time, 15.5);

  runtime::ScenarioJudge speed(with_gate(
      config::SpeedReachedGate{.speed = 2.0, .tolerance = 0.04, .by_s = 5.0, .hold_s = 1.0}));
  for (double t = 0; t <= 3.0; t += 0.25) speed.observe({.time = t, .speed = t < 1 ? 1.0 : 2.0});
  EXPECT_EQ(speed.live(0).state, State::passed);
  EXPECT_EQ(speed.live(0).time, 2.0);  // in the band from 1 s, held 1 s

  runtime::ScenarioJudge stop(with_gate(config::StoppedGate{.by_s = 1, .max_speed = 0.05}));
  stop.observe({.time = 2, .speed = 0.0});
  EXPECT_EQ(stop.live(0).state, State::open);  // decided at the end only
  EXPECT_EQ(stop.gate_count(), 1U);
}

TEST(ScenarioJudge, GatesAreInTheCourseFrameOfTheStartPose) {
  config::ScenarioSpec s = with_gate(config::DistanceReachedGate{.distance = 10, .by_s = 10});
  s.start = {.x = 100, .y = 50, .yaw = std::numbers::pi / 2};  // heading north
  runtime::ScenarioJudge j(s);
  j.observe({.time = 1, .x = 100, .y = 61, .yaw = std::numbers::pi / 2});
  EXPECT_TRUE(j.verdict().passed);
}

}  // namespace
}  // namespace hil::runtime
