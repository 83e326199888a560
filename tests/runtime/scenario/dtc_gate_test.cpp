// The scenario's dtc gates (config/scenario/scenario.proto "Dtc"): judged on the statusOfDTC
// bytes each observation carries, aligned with the judge's dtc_codes(); on the rig side the
// judge stage reads them from the status channels of the rig's diagnostics DTCs.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "rt_core/channel_table.hpp"
#include "runtime/scenario/judge_stage.hpp"
#include "runtime/scenario/scenario_judge.hpp"

namespace hil::runtime {
namespace {

using Status = config::DtcGate::Status;
using State = LiveMark::State;
constexpr double kUnknown = -1.0;  // the tester's value before its first read
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

config::DtcGate gate(Status status, double from_s = 0.0, double to_s = 10.0, bool stays = false) {
  config::DtcGate g{
      .from_s = from_s, .to_s = to_s, .code = 0xC12300, .status = status, .stays = stays};
  switch (status) {
    case Status::failed:
      g.bits = 0x01;
      break;
    case Status::pending:
      g.bits = 0x04;
      break;
    case Status::confirmed:
      g.bits = 0x08;
      break;
    case Status::clear:
      g.bits = 0x0D;
      g.clear = true;
      break;
    case Status::mask:
      break;
  }
  return g;
}

config::ScenarioSpec with_gates(std::vector<config::GateSpec> gates) {
  config::ScenarioSpec s;
  s.duration_s = 10.0;
  s.drive.path = {{.x = 0, .y = 0}, {.x = 100, .y = 0}};
  s.gates = std::move(gates);
  return s;
}

/// Observes every 0.1 s from `from` to `until` with the status `status(t)`.
template <class F>
void feed(ScenarioJudge& j, double until, F status, double from = 0.0) {
  for (auto k = static_cast<int>(std::lround(from * 10)); k * 0.1 <= until + 1e-9; ++k) {
    const double t = k * 0.1;
    const double s = status(t);
    j.observe({.time = t, .dtc_status = std::span<const double>(&s, 1)});
  }
}

GateResult judged(const config::DtcGate& g, double status, double until = 10.0) {
  ScenarioJudge j(with_gates({{.name = "g", .check = g}}));
  feed(j, until, [&](double) { return status; });
  return j.verdict().gates[0];
}

TEST(DtcGate, EachStatusIsItsBits) {
  EXPECT_TRUE(judged(gate(Status::failed), 0x01).passed);
  EXPECT_TRUE(judged(gate(Status::failed), 0x2F).passed);
  EXPECT_FALSE(judged(gate(Status::failed), 0x0E).passed);  // pending, confirmed: not failed
  EXPECT_TRUE(judged(gate(Status::pending), 0x04).passed);
  EXPECT_FALSE(judged(gate(Status::pending), 0x0B).passed);
  EXPECT_TRUE(judged(gate(Status::confirmed), 0x08).passed);
  EXPECT_FALSE(judged(gate(Status::confirmed), 0x77).passed);  // all but confirmedDTC
  // CLEAR: none of testFailed, pendingDTC, confirmedDTC; the other bits do not matter
  EXPECT_TRUE(judged(gate(Status::clear), 0x50).passed);
  EXPECT_TRUE(judged(gate(Status::clear), 0xF2).passed);
  EXPECT_FALSE(judged(gate(Status::clear), 0x01).passed);
  EXPECT_FALSE(judged(gate(Status::clear), 0x04).passed);
  EXPECT_FALSE(judged(gate(Status::clear), 0x08).passed);
  // A mask: every bit of it
  config::DtcGate m = gate(Status::mask);
  m.bits = 0x24;
  EXPECT_TRUE(judged(m, 0x24).passed);
  EXPECT_TRUE(judged(m, 0x2C).passed);
  EXPECT_FALSE(judged(m, 0x20).passed);
  EXPECT_FALSE(judged(m, 0x04).passed);
}

// A status not read yet shows nothing — not even CLEAR.
TEST(DtcGate, AnUnknownStatusNeverShowsIt) {
  for (const double unknown : {kUnknown, kNaN}) {
    const GateResult clear = judged(gate(Status::clear), unknown);
    EXPECT_FALSE(clear.passed);
    EXPECT_TRUE(clear.reached);
    EXPECT_EQ(clear.detail,
              "DTC C12300 CLEAR: never from 0.0 s to 10.0 s; status at 10.00 s unknown (not "
              "read yet)");
  }
  // Observations without statuses (a judge fed no DTCs) count as unknown too
  ScenarioJudge j(with_gates({{.name = "g", .check = gate(Status::clear)}}));
  j.observe({.time = 10.0});
  EXPECT_FALSE(j.verdict().passed);
}

TEST(DtcGate, PassesWhenItShowsItWithinTheWindow) {
  const config::DtcGate g = gate(Status::confirmed, 1.0, 2.0);
  const auto at = [&](double set_at, double clear_at = 99.0) {
    ScenarioJudge j(with_gates({{.name = "g", .check = g}}));
    feed(j, 10.0, [&](double t) { return t >= set_at - 1e-9 && t < clear_at ? 0x09 : 0x50; });
    return j.verdict().gates[0];
  };
  const GateResult in_time = at(1.5);
  EXPECT_TRUE(in_time.passed);
  EXPECT_EQ(in_time.kind, "dtc");
  EXPECT_DOUBLE_EQ(in_time.value, 1.5);
  EXPECT_EQ(in_time.unit, "s");
  EXPECT_EQ(in_time.detail,
            "DTC C12300 CONFIRMED at 1.50 s, status 0x09 (testFailed, confirmedDTC) (wanted from "
            "1.0 s to 2.0 s)");
  const GateResult late = at(2.5);
  EXPECT_FALSE(late.passed);
  EXPECT_TRUE(late.reached);
  EXPECT_TRUE(std::isnan(late.value));
  EXPECT_EQ(late.detail,
            "DTC C12300 CONFIRMED: never from 1.0 s to 2.0 s; status at 2.00 s 0x50 "
            "(testNotCompletedSinceLastClear, testNotCompletedThisOperationCycle)");
  EXPECT_FALSE(at(0.3, 0.9).passed);  // shown and gone before the window: does not count
  const GateResult early = at(0.3);   // shown before and still at its start
  EXPECT_TRUE(early.passed);
  EXPECT_DOUBLE_EQ(early.value, 1.0);
}

TEST(DtcGate, AWindowTheRunDidNotReachIsNotDecided) {
  const GateResult r = judged(gate(Status::confirmed, 1.0, 2.0), 0x50, 1.5);
  EXPECT_FALSE(r.reached);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.detail, "not decided: the run ended at 1.50 s, before 2.0 s");
  // Shown already: decided, however short the run
  EXPECT_TRUE(judged(gate(Status::confirmed, 1.0, 2.0), 0x08, 1.5).reached);
}

TEST(DtcGate, StaysMustHoldAtEveryObservation) {
  const config::DtcGate g = gate(Status::clear, 4.5, 10.0, /*stays=*/true);
  const auto run = [&](double set_at) {
    ScenarioJudge j(with_gates({{.name = "g", .check = g}}));
    feed(j, 9.9, [&](double t) { return t >= set_at - 1e-9 ? 0x09 : 0x50; });
    return j.verdict().gates[0];
  };
  const GateResult held = run(99.0);
  EXPECT_TRUE(held.passed);
  EXPECT_TRUE(std::isnan(held.value));
  EXPECT_EQ(held.detail, "DTC C12300 CLEAR at every observation from 4.5 s to 10.0 s");
  EXPECT_FALSE(run(0.0).passed);  // failed before, at from_s and on
  const GateResult broke = run(7.0);
  EXPECT_FALSE(broke.passed);
  EXPECT_TRUE(broke.reached);
  EXPECT_DOUBLE_EQ(broke.value, 7.0);
  EXPECT_EQ(broke.detail,
            "DTC C12300 CLEAR: not at 7.00 s, status 0x09 (testFailed, confirmedDTC); needed "
            "from 4.5 s to 10.0 s");
  // Set and cleared again before from_s: only the window counts
  ScenarioJudge before(with_gates({{.name = "g", .check = g}}));
  feed(before, 9.9, [&](double t) { return t > 1.0 && t < 4.0 ? 0x09 : 0x50; });
  EXPECT_TRUE(before.verdict().passed);
  // Cut short before the window's end, unbroken so far: not decided
  const GateResult short_run = judged(g, 0x50, 6.0);
  EXPECT_FALSE(short_run.reached);
  EXPECT_FALSE(short_run.passed);
}

// The tester has not read the status when the window starts: the gate fails there and says so.
TEST(DtcGate, StaysFailsOnAStatusNotReadYetAtItsStart) {
  ScenarioJudge j(with_gates({{.name = "g", .check = gate(Status::clear, 0.0, 10.0, true)}}));
  feed(j, 9.9, [&](double t) { return t < 0.1 ? kUnknown : 0x50; });
  const GateResult r = j.verdict().gates[0];
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.value, 0.0);
  EXPECT_EQ(r.detail,
            "DTC C12300 CLEAR: not at 0.00 s, status unknown (not read yet); needed from 0.0 s "
            "to 10.0 s");
}

TEST(DtcGate, LiveMarksComeAsSoonAsDecided) {
  ScenarioJudge j(with_gates({
      {.name = "shows", .check = gate(Status::confirmed, 1.0, 3.0)},
      {.name = "never", .check = gate(Status::pending, 1.0, 2.0)},
      {.name = "holds", .check = gate(Status::failed, 0.0, 2.5, true)},
      {.name = "to the end", .check = gate(Status::failed, 0.0, 10.0, true)},
  }));
  // testFailed throughout, confirmed from 1.5 s, never pending
  feed(j, 1.4, [](double) { return 0x01; });
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(j.live(i).state, State::open) << i;
  feed(
      j, 3.0, [](double t) { return t >= 1.5 - 1e-9 ? 0x09 : 0x01; }, 1.5);
  EXPECT_EQ(j.live(0).state, State::passed);
  EXPECT_DOUBLE_EQ(j.live(0).time, 1.5);
  EXPECT_EQ(j.live(1).state, State::failed);  // pendingDTC not set by the window's end
  EXPECT_NEAR(j.live(1).time, 2.0, 1e-9);
  EXPECT_EQ(j.live(2).state, State::passed);  // testFailed at every observation to 2.5 s
  EXPECT_NEAR(j.live(2).time, 2.5, 1e-9);
  EXPECT_EQ(j.live(3).state, State::open);  // its window runs to the end: decided there
  EXPECT_FALSE(j.verdict().gates[3].reached);
}

TEST(DtcGate, AStaysGateFailsLiveAtItsFirstViolation) {
  ScenarioJudge j(with_gates({{.name = "g", .check = gate(Status::clear, 1.0, 10.0, true)}}));
  feed(j, 3.0, [](double t) { return t >= 2.2 - 1e-9 ? 0x2F : 0x50; });
  EXPECT_EQ(j.live(0).state, State::failed);
  EXPECT_DOUBLE_EQ(j.live(0).time, 2.2);
}

// Each gate reads the status of its own code; codes repeat once in dtc_codes().
TEST(DtcGate, StatusesAreAlignedWithTheDistinctCodes) {
  config::DtcGate battery = gate(Status::confirmed);
  battery.code = 0x056200;
  ScenarioJudge j(with_gates({{.name = "wheels", .check = gate(Status::confirmed)},
                              {.name = "not a dtc", .check = config::NoRollbackGate{.max_m = 1}},
                              {.name = "battery", .check = battery},
                              {.name = "wheels clear", .check = gate(Status::clear)}}));
  ASSERT_EQ(j.dtc_codes().size(), 2U);
  EXPECT_EQ(j.dtc_codes()[0], 0xC12300U);
  EXPECT_EQ(j.dtc_codes()[1], 0x056200U);
  const std::vector<double> status = {0x50, 0x08};  // wheels clear, battery confirmed
  j.observe({.time = 10.0, .dtc_status = status});
  const ScenarioVerdict v = j.verdict();
  EXPECT_FALSE(v.gates[0].passed);
  EXPECT_TRUE(v.gates[2].passed);
  EXPECT_TRUE(v.gates[3].passed);
}

// ---- the rig side: JudgeStage on the status channels ----

config::DiagnosticsSpec rig_diagnostics() {
  config::DiagnosticsSpec d;
  d.dtcs = {{.code = 0x056200, .name = "battery_voltage_low"},
            {.code = 0xC12300, .name = "wheel_speeds_lost"}};
  return d;
}

void add_vehicle_channels(rt::ChannelTable& table) {
  for (const char* name : {"vehicle.body.position.x", "vehicle.body.position.y", "vehicle.body.yaw",
                           "vehicle.body.forward_speed"}) {
    (void)table.add({.name = name, .unit = "-", .direction = rt::Direction::output});
  }
}

TEST(JudgeStage, ReadsTheStatusChannelOfTheGatesDtc) {
  rt::ChannelTable table;
  add_vehicle_channels(table);
  const rt::ChannelId battery = table.add({.name = "diag.dtc.battery_voltage_low.status",
                                           .unit = "-",
                                           .direction = rt::Direction::output,
                                           .initial = -1.0});
  const rt::ChannelId wheels = table.add({.name = "diag.dtc.wheel_speeds_lost.status",
                                          .unit = "-",
                                          .direction = rt::Direction::output,
                                          .initial = -1.0});
  table.freeze();
  const config::ScenarioSpec s =
      with_gates({{.name = "C12300 confirmed", .check = gate(Status::confirmed, 1.0, 2.0)},
                  {.name = "battery clear", .check = [] {
                     config::DtcGate b = gate(Status::clear, 0.5, 10.0, true);
                     b.code = 0x056200;
                     return b;
                   }()}});
  JudgeStage stage(s, table, rig_diagnostics());
  for (std::int64_t k = 0; k < 100; ++k) {
    const double t = static_cast<double>(k) * 0.1;
    table.set(battery, t < 0.3 ? -1.0 : 0x50);  // read from 0.3 s on
    table.set(wheels, t < 0.3 ? -1.0 : t < 1.2 ? 0x50 : 0x2F);
    stage.run(
        {.tick = k, .time = k * 100 * rt::kMillisecond, .dt = 100 * rt::kMillisecond, .dt_s = 0.1});
  }
  const ScenarioVerdict v = stage.judge().verdict();
  ASSERT_EQ(v.gates.size(), 2U);
  EXPECT_TRUE(v.gates[0].passed) << v.gates[0].detail;
  EXPECT_DOUBLE_EQ(v.gates[0].value, 1.2);
  EXPECT_TRUE(v.gates[1].passed) << v.gates[1].detail;
}

TEST(JudgeStage, RefusesADtcTheRigCannotRead) {
  rt::ChannelTable table;
  add_vehicle_channels(table);
  (void)table.add({.name = "diag.dtc.wheel_speeds_lost.status", .unit = "-"});
  table.freeze();
  const auto message = [&](const config::DtcGate& g,
                           const std::optional<config::DiagnosticsSpec>& d) {
    try {
      JudgeStage stage(with_gates({{.name = "X", .check = g}}), table, d);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  config::DtcGate unknown = gate(Status::confirmed);
  unknown.code = 0xC99900;
  EXPECT_EQ(message(unknown, rig_diagnostics()),
            "gate \"X\": DTC C99900 is not in the rig's diagnostics block (its DTCs: 056200 "
            "battery_voltage_low, C12300 wheel_speeds_lost)");
  EXPECT_EQ(message(gate(Status::confirmed), std::nullopt),
            "gate \"X\": DTC C12300 cannot be read: the rig has no diagnostics block");
  config::DtcGate battery = gate(Status::confirmed);
  battery.code = 0x056200;
  EXPECT_EQ(message(battery, rig_diagnostics()),
            "gate \"X\": DTC 056200's status channel diag.dtc.battery_voltage_low.status is not "
            "in the rig's table (no UDS tester reads it)");
  EXPECT_EQ(message(gate(Status::confirmed), rig_diagnostics()), "no error");
  // Without dtc gates the rig needs no diagnostics
  EXPECT_NO_THROW(JudgeStage(with_gates({}), table, std::nullopt));
}

}  // namespace
}  // namespace hil::runtime
