// Scenario files (config/scenario/scenario.proto): the shipped ones load on the shipped rigs; every
// mistake is reported at its file:line:column with the field — in the scenario's own
// blocks, in its `rig` overlay, in the rig file underneath; the ISO 3888-1 course has the
// standard's dimensions.

#include "config/scenario/scenario_spec.hpp"
#include "config/rig/rig_document.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/scenario/iso3888_course.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::config {
namespace {

const std::string kRavon = HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt";
const std::string kHmmwv = HIL_SOURCE_DIR "/hil_rigs/hmmwv/rig.pbtxt";
const std::vector<std::string> kShipped = {"straight_accel_brake", "double_lane_change",
                                           "hill_start",           "offroad_sand_clay",
                                           "ice_crosswind",        "objects_crossing"};

/// Loads `text` as scenario.pbtxt in a fresh directory on `rig`; the errors as the user sees
/// them, without the directory.
std::vector<std::string> errors_of(std::string_view text, const std::string& rig = kRavon) {
  const testing::TempDir dir;
  const auto path = dir.write("scenario.pbtxt", text);
  const config::ScenarioLoadResult result = config::load_scenario(path, rig);
  EXPECT_FALSE(result.ok());
  std::vector<std::string> out;
  for (const ConfigError& e : result.errors) {
    std::string s = e.to_string();
    const std::string prefix = dir.path().string() + "/";
    if (s.starts_with(prefix)) s.erase(0, prefix.size());
    out.push_back(s);
  }
  return out;
}

TEST(ShippedScenarios, EachLoadsOnRavonAndTheHmmwv) {
  for (const std::string& rig : {kRavon, kHmmwv}) {
    for (const std::string& name : kShipped) {
      const config::ScenarioLoadResult r =
          config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/" + name + ".pbtxt", rig);
      EXPECT_TRUE(r.ok()) << name << " on " << rig;
      for (const ConfigError& e : r.errors) ADD_FAILURE() << e.to_string();
      if (!r.ok()) continue;
      EXPECT_EQ(r.scenario->name, name);
      EXPECT_GE(r.scenario->drive.path.size(), 2U);
      EXPECT_FALSE(r.scenario->gates.empty()) << name;
    }
  }
}

TEST(ScenarioErrors, AScenarioForOtherRigsIsRefusedWithItsField) {
  const testing::TempDir dir;
  const auto path = dir.write("for_hmmwv.pbtxt",
                              "description: \"x\"\nduration_s: 5\nrigs: \"hmmwv\"\n"
                              "drive { straight { speeds { at_s: 0 speed: 1 } } }\n");
  config::ScenarioLoadResult on_hmmwv = config::load_scenario(path, kHmmwv);
  config::require_rig(on_hmmwv, "hmmwv");
  EXPECT_TRUE(on_hmmwv.ok());
  config::ScenarioLoadResult on_ravon = config::load_scenario(path, kRavon);
  ASSERT_TRUE(on_ravon.ok());  // it loads: the rig's name is not the loader's to know
  config::require_rig(on_ravon, "ravon");
  EXPECT_FALSE(on_ravon.ok());
  ASSERT_EQ(on_ravon.errors.size(), 1U);
  EXPECT_EQ(on_ravon.errors[0].to_string(),
            path.string() + ":3:7: rigs[0]: the scenario is for hmmwv; not for the rig ravon");
  // A scenario that names no rig runs on any
  const auto any = dir.write("any.pbtxt",
                             "description: \"x\"\nduration_s: 5\n"
                             "drive { straight { speeds { at_s: 0 speed: 1 } } }\n");
  config::ScenarioLoadResult anywhere = config::load_scenario(any, kRavon);
  config::require_rig(anywhere, "ravon");
  EXPECT_TRUE(anywhere.ok());
}

TEST(ShippedScenarios, TheHillStartsOverlayTiltsTheRig) {
  const config::ScenarioLoadResult r =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/hill_start.pbtxt", kRavon);
  ASSERT_TRUE(r.ok());
  const std::string text = config::rig_text(*r.rig);
  EXPECT_NE(text.find("incline {\n    grade_percent: 10\n"), std::string::npos) << text;
  EXPECT_NE(text.find("preset: \"ravon\""), std::string::npos)
      << text;  // the rig file's blocks stay
  EXPECT_NEAR(r.rig->terrain->height(10.0, 0.0) - r.rig->terrain->height(0.0, 0.0), 1.0, 1e-9);
}

TEST(ShippedRigs, TheHmmwvRigLoadsWithItsBus) {
  const LoadResult r = load_rig_config(kHmmwv);
  for (const ConfigError& e : r.errors) ADD_FAILURE() << e.to_string();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.settings->can.size(), 1U);
  EXPECT_EQ(r.settings->can[0].rx.size(), 2U);
  EXPECT_EQ(r.settings->can[0].tx.size(), 7U);
  EXPECT_EQ(r.settings->vehicle->drive.kind, models::DriveKind::combustion);
}

TEST(ScenarioErrors, ScenarioFieldsAreLocated) {
  EXPECT_EQ(errors_of("description: \"x\"\n"
                      "duration_s: -1\n"
                      "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"),
            std::vector<std::string>{"scenario.pbtxt:2:13: duration_s: -1 is out of range; "
                                     "expected 0.001..86400 (s)"});
  EXPECT_EQ(
      errors_of("duration_s: 10\n"
                "drive {\n"
                "  path { points { x: 0 y: 0 speed: 1 } }\n"
                "}\n"),
      std::vector<std::string>{"scenario.pbtxt:3:3: drive.path: 1 point(s); expected at least 2"});
}

TEST(ScenarioErrors, AMisspeltEventChannelSuggestsTheRightOne) {
  EXPECT_EQ(errors_of("duration_s: 10\n"
                      "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"
                      "events { at_s: 2\n"
                      "         channel: \"env.wind.sped\" value: 3 }\n"),
            std::vector<std::string>{
                "scenario.pbtxt:4:19: events[0].channel: \"env.wind.sped\" is not an input "
                "channel of the rig (did you mean env.wind.speed?); expected one of its inputs "
                "(hilsim check --print) or a marker \"scenario.<name>\""});
}

TEST(ScenarioErrors, AGateThatCouldNeverPassIsRefused) {
  EXPECT_EQ(errors_of("duration_s: 10\n"
                      "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"
                      "gates { speed_reached { speed: 1 by_s: 9\n"
                      "                        hold_s: 2 } }\n"),
            std::vector<std::string>{
                "scenario.pbtxt:4:33: gates[0].speed_reached.hold_s: by_s + hold_s = 11 is "
                "after the end (10 s); the gate could never pass"});
}

TEST(ScenarioErrors, TheRigBlockIsCheckedLikeAnOverlayAndPointsIntoTheScenario) {
  // A value out of range in the rig block: the terrain's own check, located in the scenario
  EXPECT_EQ(errors_of("duration_s: 10\n"
                      "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"
                      "rig {\n"
                      "  terrain { incline { grade_percent: 150 } }\n"
                      "}\n"),
            std::vector<std::string>{
                "scenario.pbtxt:4:38: rig.terrain.incline.grade_percent: 150 is out of range; "
                "expected -100..100 (percent: 100·rise/run)"});
  // An unknown field in the rig block: a parse error with a suggestion
  const std::vector<std::string> unknown = errors_of(
      "duration_s: 10\n"
      "rig { terain { flat {} } }\n"
      "drive { straight { speeds { at_s: 0 speed: 1 } } }\n");
  ASSERT_EQ(unknown.size(), 1U);
  EXPECT_TRUE(unknown[0].starts_with("scenario.pbtxt:2:7: rig.terain:")) << unknown[0];
  EXPECT_NE(unknown[0].find("terrain"), std::string::npos) << unknown[0];
  // An integer range of the rig's executive, as the parse error words it
  const std::vector<std::string> period = errors_of(
      "duration_s: 10\n"
      "rig { executive { period_us: 20 } }\n"
      "drive { straight { speeds { at_s: 0 speed: 1 } } }\n");
  ASSERT_EQ(period.size(), 1U);
  EXPECT_EQ(period[0],
            "scenario.pbtxt:2:30: rig.executive.period_us: 20 is out of range; expected "
            "50..100000 (microseconds)");
}

TEST(ScenarioErrors, RigFileErrorsKeepTheRigFilesPosition) {
  const testing::TempDir dir;
  const auto rig = dir.write("rig.pbtxt", "vehicle { preset: \"ravn\" }\n");
  const std::vector<std::string> errors = errors_of(
      "duration_s: 1\ndrive { straight { speeds { at_s: 0 speed: 1 } } }\n", rig.string());
  ASSERT_FALSE(errors.empty());
  EXPECT_TRUE(errors[0].starts_with(rig.string() + ":1:19: vehicle.preset:")) << errors[0];
}

TEST(ScenarioErrors, AMissingFileIsNamed) {
  const config::ScenarioLoadResult r = config::load_scenario("/nonexistent/scenario.pbtxt", kRavon);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].file, "/nonexistent/scenario.pbtxt");
  EXPECT_NE(r.errors[0].message.find("cannot read"), std::string::npos) << r.errors[0].message;
}

TEST(ScenarioFiles, AreToldApartFromRigFiles) {
  EXPECT_TRUE(config::looks_like_scenario("duration_s: 3"));
  EXPECT_TRUE(config::looks_like_scenario("rig { vehicle {} }\ngates { stopped { by_s: 1 } }"));
  EXPECT_FALSE(config::looks_like_scenario("vehicle { preset: \"ravon\" } terrain { flat {} }"));
  EXPECT_FALSE(config::looks_like_scenario(std::string(100, '{')));
}

// dtc gates: the status words map to statusOfDTC bits, the window defaults to the end.
TEST(ScenarioDtcGates, LoadWithTheirBitsAndWindow) {
  const testing::TempDir dir;
  const auto path =
      dir.write("dtc.pbtxt",
                "duration_s: 10\n"
                "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"
                "gates { name: \"C12300 confirmed\"\n"
                "        dtc { code: 0xC12300 status: CONFIRMED from_s: 1.0 within_s: 1.0 } }\n"
                "gates { name: \"stays clear\" dtc { code: 0xC12300 status: CLEAR from_s: 4.5 "
                "stays: true } }\n"
                "gates { dtc { code: 0x056200 mask: 0x24 } }\n"
                "gates { dtc { code: 0x056200 status: FAILED } }\n"
                "gates { dtc { code: 0x056200 status: PENDING } }\n");
  const config::ScenarioLoadResult r = config::load_scenario(path, kRavon);
  for (const ConfigError& e : r.errors) ADD_FAILURE() << e.to_string();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.scenario->gates.size(), 5U);
  const auto dtc = [&](std::size_t i) { return std::get<DtcGate>(r.scenario->gates[i].check); };
  using enum DtcGate::Status;
  EXPECT_EQ(dtc(0).code, 0xC12300U);
  EXPECT_EQ(dtc(0).status, confirmed);
  EXPECT_EQ(dtc(0).bits, 0x08);
  EXPECT_FALSE(dtc(0).clear);
  EXPECT_EQ(dtc(0).from_s, 1.0);
  EXPECT_EQ(dtc(0).to_s, 2.0);
  EXPECT_FALSE(dtc(0).stays);
  EXPECT_EQ(dtc(1).status, clear);
  EXPECT_EQ(dtc(1).bits, 0x0D);  // none of testFailed, pendingDTC, confirmedDTC
  EXPECT_TRUE(dtc(1).clear);
  EXPECT_EQ(dtc(1).to_s, 10.0);  // to the end
  EXPECT_TRUE(dtc(1).stays);
  EXPECT_EQ(dtc(2).status, mask);
  EXPECT_EQ(dtc(2).bits, 0x24);
  EXPECT_EQ(dtc(2).from_s, 0.0);
  EXPECT_EQ(dtc(3).bits, 0x01);
  EXPECT_EQ(dtc(4).bits, 0x04);
  EXPECT_EQ(r.scenario->gates[2].name, "dtc 3");
}

/// The one error of a 10 s scenario on `rig` whose third line is `gate`.
std::string gate_error(std::string_view gate, const std::string& rig = kRavon) {
  const std::vector<std::string> errors =
      errors_of(fmt::format("duration_s: 10\n"
                            "drive {{ straight {{ speeds {{ at_s: 0 speed: 1 }} }} }}\n"
                            "{}\n",
                            gate),
                rig);
  EXPECT_EQ(errors.size(), 1U) << fmt::format("{}", fmt::join(errors, "\n"));
  return errors.empty() ? "" : errors[0];
}

TEST(ScenarioDtcGates, MistakesAreLocatedAtTheGate) {
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC99900 status: CONFIRMED } }"),
            "scenario.pbtxt:3:21: gates[0].dtc.code: DTC C99900 is not in the rig's diagnostics "
            "block (its DTCs: C12300 wheel_speeds_lost, C12400 motor_currents_lost, C12500 "
            "steer_feedback_errors, 056200 battery_voltage_low, 050000 wheel_speed_implausible)");
  EXPECT_EQ(gate_error("gates { dtc { code: 0x1000000 status: CONFIRMED } }"),
            "scenario.pbtxt:3:21: gates[0].dtc.code: 0x1000000 is out of range; expected 3 bytes "
            "(at most 0xFFFFFF)");
  const std::string one_of =
      "expected exactly one of status (FAILED, PENDING, CONFIRMED, CLEAR) and mask";
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 status: CONFIRMED mask: 8 } }"),
            "scenario.pbtxt:3:9: gates[0].dtc: " + one_of);
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 } }"),
            "scenario.pbtxt:3:9: gates[0].dtc: " + one_of);
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 mask: 0x100 } }"),
            "scenario.pbtxt:3:36: gates[0].dtc.mask: 256 is out of range; expected 1..0xFF "
            "(statusOfDTC bits)");
  EXPECT_EQ(gate_error("gates { dtc { status: CLEAR } }"),
            "scenario.pbtxt:3:9: gates[0].dtc.code: missing; expected the DTC's number (0xC12300)");
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 status: CLEAR from_s: -1 } }"),
            "scenario.pbtxt:3:52: gates[0].dtc.from_s: -1 is out of range; expected 0..10 (the "
            "duration, s)");
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 status: CLEAR within_s: 0 } }"),
            "scenario.pbtxt:3:54: gates[0].dtc.within_s: 0 is out of range; expected > 0");
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 status: CLEAR from_s: 8 within_s: 3 } }"),
            "scenario.pbtxt:3:64: gates[0].dtc.within_s: from_s + within_s = 11 is after the end "
            "(10 s); the window must end by then");
  // A rig without diagnostics has no DTC to judge
  EXPECT_EQ(gate_error("gates { dtc { code: 0xC12300 status: CONFIRMED } }", kHmmwv),
            "scenario.pbtxt:3:21: gates[0].dtc.code: DTC C12300: the rig has no diagnostics "
            "block to read it from");
}

// Checked on a rig it is not for, a scenario with dtc gates says just that, not that the rig
// lacks its DTCs.
TEST(ScenarioDtcGates, AScenarioForAnotherRigIsRefusedForThatFirst) {
  const testing::TempDir dir;
  const auto path = dir.write("for_ravon.pbtxt",
                              "duration_s: 5\nrigs: \"ravon\"\n"
                              "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"
                              "gates { dtc { code: 0xC12300 status: CONFIRMED } }\n");
  config::ScenarioLoadResult on_hmmwv = config::load_scenario(path, kHmmwv);
  EXPECT_FALSE(on_hmmwv.ok());  // no diagnostics on the HMMWV
  config::require_rig(on_hmmwv, "hmmwv");
  ASSERT_EQ(on_hmmwv.errors.size(), 1U);
  EXPECT_EQ(on_hmmwv.errors[0].to_string(),
            path.string() + ":2:7: rigs[0]: the scenario is for ravon; not for the rig hmmwv");
  config::ScenarioLoadResult on_ravon = config::load_scenario(path, kRavon);
  config::require_rig(on_ravon, "ravon");
  EXPECT_TRUE(on_ravon.ok());
}

TEST(Iso3888Course, HasTheStandardsDimensions) {
  // ISO 3888-1:1999 Table 1 for RAVON's width b = 1.156 + 0.254 = 1.41 m
  const double b = 1.41;
  const std::array<double, 3> w = config::iso3888_1_lane_widths(b);
  EXPECT_NEAR(w[0], 1.801, 1e-12);
  EXPECT_NEAR(w[1], 1.942, 1e-12);
  EXPECT_NEAR(w[2], 2.083, 1e-12);
  const config::Iso3888Course c =
      config::iso3888_1_course({.vehicle_width = b, .approach = 10.0, .exit = 20.0});
  EXPECT_EQ(c.lanes[0].x_min, 10.0);
  EXPECT_EQ(c.lanes[0].x_max, 25.0);   // 15 m
  EXPECT_EQ(c.lanes[1].x_min, 55.0);   // + 30 m
  EXPECT_EQ(c.lanes[1].x_max, 80.0);   // 25 m
  EXPECT_EQ(c.lanes[2].x_min, 105.0);  // + 25 m
  EXPECT_EQ(c.lanes[2].x_max, 120.0);  // 15 m
  EXPECT_EQ(c.length, 140.0);
  // Lane 1 centred on the start line; lanes 1 and 5 share their right-hand edge; lane 3's
  // right-hand edge 3.5 m to the left of it
  EXPECT_NEAR(c.lanes[0].y_min, -0.5 * w[0], 1e-12);
  EXPECT_NEAR(c.lanes[0].y_max, 0.5 * w[0], 1e-12);
  EXPECT_NEAR(c.lanes[1].y_min - c.lanes[0].y_min, 3.5, 1e-12);
  EXPECT_NEAR(c.lanes[1].y_max - c.lanes[1].y_min, w[1], 1e-12);
  EXPECT_NEAR(c.lanes[2].y_min, c.lanes[0].y_min, 1e-12);
  EXPECT_NEAR(c.lanes[2].y_max - c.lanes[2].y_min, w[2], 1e-12);
  // The path runs down each coned lane's middle, and is smooth between them
  for (const config::CoursePoint& p : c.path) {
    for (const config::CourseLane& lane : c.lanes) {
      if (p.x >= lane.x_min && p.x <= lane.x_max) {
        EXPECT_NEAR(p.y, 0.5 * (lane.y_min + lane.y_max), 1e-12) << lane.name << " x " << p.x;
      }
    }
  }
  double steepest = 0.0;
  for (std::size_t i = 1; i < c.path.size(); ++i) {
    steepest = std::max(steepest,
                        std::abs(c.path[i].y - c.path[i - 1].y) / (c.path[i].x - c.path[i - 1].x));
  }
  // Quintic steps, max slope 15/8 · Δy / L: over section 2 (30 m) Δy = 3.5 + (w3 − w1)/2,
  // over section 4 (25 m) back by 3.5 + (w3 − w5)/2 — the steeper one
  EXPECT_NEAR(steepest,
              std::max(15.0 / 8.0 * (3.5 + 0.5 * (w[1] - w[0])) / 30.0,
                       15.0 / 8.0 * (3.5 + 0.5 * (w[1] - w[2])) / 25.0),
              1e-3);
  // To the right: mirrored
  const config::Iso3888Course right =
      config::iso3888_1_course({.vehicle_width = b, .approach = 10.0, .exit = 20.0, .left = false});
  EXPECT_NEAR(right.lanes[1].y_max, -c.lanes[1].y_min, 1e-12);
}

}  // namespace
}  // namespace hil::config
