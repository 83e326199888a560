// Sweep plans (config/sweep/sweep_plan.hpp, issue 17): checked with located errors; variants
// that depend only on the plan and their index, their overlays valid rig layers.

#include "config/sweep/sweep_plan.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include <string>
#include <vector>

#include "config/rig.pb.h"
#include "tests/support/temp_dir.hpp"

namespace hil::config {
namespace {

namespace fs = std::filesystem;
using config::testing::TempDir;

std::vector<std::string> errors_of(const TempDir& dir, const std::string& plan) {
  const SweepLoad load = load_sweep(dir.write("plan.pbtxt", plan));
  std::vector<std::string> out;
  for (const config::ConfigError& e : load.errors) out.push_back(e.to_string());
  return out;
}

bool has(const std::vector<std::string>& errors, const std::string& part) {
  for (const std::string& e : errors) {
    if (e.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(SweepPlan, BadPlansAreLocatedErrors) {
  const TempDir dir;
  const std::string rig = "rig: \"ravon\"\n";
  const auto e1 = errors_of(dir, rig + "grid { field: \"vehicle.sprung.mas\" values: [1] }\n");
  EXPECT_TRUE(has(e1,
                  "plan.pbtxt:2:15: grid[0].field: no field \"vehicle.sprung.mas\" in a rig; "
                  "did you mean \"vehicle.sprung.mass\"?"))
      << ::testing::PrintToString(e1);
  const auto e2 = errors_of(
      dir, rig + "grid { field: \"vehicle.sprung.mass\" range { from: 1 to: 2 count: 0 } }\n");
  EXPECT_TRUE(has(e2, "plan.pbtxt:2:37: grid[0].range: count 0: the range is empty"))
      << ::testing::PrintToString(e2);
  const auto e3 = errors_of(dir, rig + "samples: -2\n");
  EXPECT_TRUE(has(e3, "plan.pbtxt:2:10: samples:")) << ::testing::PrintToString(e3);
  const auto e4 = errors_of(dir, rig + "grid { field: \"vehicle.sprung.mass\" values: [-5] }\n");
  EXPECT_TRUE(has(e4, "grid[0].values[0]: vehicle.sprung.mass = -5:"))
      << ::testing::PrintToString(e4);
  const auto e5 = errors_of(dir, rig + "grid { field: \"vehicle.sprung.mass\" texts: [\"x\"] }\n");
  EXPECT_TRUE(has(e5, "expected a number for \"vehicle.sprung.mass\", got \"x\""))
      << ::testing::PrintToString(e5);
  const auto e6 = errors_of(dir, rig + "repetitions: 3\n");
  EXPECT_TRUE(has(e6, "repetitions: runs are deterministic")) << ::testing::PrintToString(e6);
  const auto e7 =
      errors_of(dir, rig + "random { field: \"vehicle.gravity\" uniform { min: 3 max: 3 } }\n");
  EXPECT_TRUE(has(e7, "random[0].uniform: min 3 is not below max 3: an empty range"))
      << ::testing::PrintToString(e7);
  const auto e8 = errors_of(dir, rig + "scenarios: \"no_such_scenario\"\n");
  EXPECT_TRUE(has(e8, "scenarios[0]:")) << ::testing::PrintToString(e8);
  const auto e9 = errors_of(dir, "grid { field: \"can.buses.name\" texts: [\"x\"] }\n");
  EXPECT_TRUE(has(e9, "no rig; expected rig:")) << ::testing::PrintToString(e9);
  const auto e10 = errors_of(dir, rig + "grid { field: \"can.buses.uri\" texts: [\"x\"] }\n");
  EXPECT_TRUE(has(e10, "is inside a list (buses)")) << ::testing::PrintToString(e10);
  const auto e11 = errors_of(dir, rig + "grid { field: \"vehicle.sprung\" values: [1] }\n");
  EXPECT_TRUE(has(e11, "\"vehicle.sprung\" is a block; expected one of its fields"))
      << ::testing::PrintToString(e11);
}

constexpr const char* kPlan = R"(
rig: "ravon"
scenarios: ["straight_accel_brake", "hill_start"]
grid { field: "terrain.surface.type" texts: ["dry", "snow"] }
grid { field: "vehicle.sprung.mass" range { from: 700 to: 800 count: 3 } }
random { field: "vehicle.aero.drag_coefficient" uniform { min: 0.8 max: 1.2 } }
random { field: "terrain.surface.friction_scale" normal { mean: 1 sigma: 0.5 min: 0.9 max: 1.1 } }
samples: 2
repetitions: 2
noise_seeds: true
seed: 7
)";

TEST(SweepPlan, VariantsDependOnlyOnThePlanAndTheirIndex) {
  const TempDir dir;
  const SweepLoad load = load_sweep(dir.write("plan.pbtxt", kPlan));
  ASSERT_TRUE(load.ok()) << load.errors.front().to_string();
  const SweepPlan& plan = *load.plan;
  EXPECT_EQ(plan.size(), 2U * 2 * 3 * 2 * 2);
  // index = ((scenario·6 + grid point)·2 + sample)·2 + repetition, the last grid dimension
  // fastest
  const Variant v = plan.variant(2 * 2 * (6 + 4) + 2 * 1 + 1);
  EXPECT_EQ(v.scenario, "hill_start");
  EXPECT_EQ(v.sample, 1U);
  EXPECT_EQ(v.repetition, 1U);
  ASSERT_EQ(v.parameters.size(), 5U);
  EXPECT_EQ(v.parameters[0].value, "snow");
  EXPECT_EQ(v.parameters[1].value, "750");
  const double drag = std::stod(v.parameters[2].value);
  const double friction = std::stod(v.parameters[3].value);
  EXPECT_GE(drag, 0.8);
  EXPECT_LT(drag, 1.2);
  EXPECT_GE(friction, 0.9);
  EXPECT_LE(friction, 1.1);
  EXPECT_EQ(v.parameters[4].field, "vehicle.seed");
  EXPECT_EQ(v.parameters[4].value, std::to_string(v.seed));
  // The overlay is a rig overlay that says exactly that
  config::RigConfig overlay;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(v.overlay, &overlay)) << v.overlay;
  EXPECT_EQ(overlay.terrain().surface().type(), "snow");
  EXPECT_EQ(overlay.vehicle().sprung().mass(), 750.0);
  EXPECT_EQ(overlay.vehicle().seed(), v.seed);
  EXPECT_EQ(std::to_string(overlay.vehicle().aero().drag_coefficient()).substr(0, 6),
            std::to_string(drag).substr(0, 6));

  // Loaded again (another machine, another task): the same variants
  const SweepLoad again = load_sweep(dir.write("again.pbtxt", kPlan));
  ASSERT_TRUE(again.ok());
  std::set<std::string> draws;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const Variant a = plan.variant(i);
    const Variant b = again.plan->variant(i);
    EXPECT_EQ(a.seed, b.seed);
    ASSERT_EQ(a.parameters.size(), b.parameters.size());
    for (std::size_t p = 0; p < a.parameters.size(); ++p) {
      EXPECT_EQ(a.parameters[p].value, b.parameters[p].value);
    }
    draws.insert(a.parameters[2].value);
  }
  EXPECT_EQ(draws.size(), plan.size());  // every variant draws anew
  // A variant's draws do not depend on how many variants there are
  std::string fewer = kPlan;
  fewer.replace(fewer.find("samples: 2"), 10, "samples: 9");
  const SweepLoad more = load_sweep(dir.write("more.pbtxt", fewer));
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(more.plan->variant(5).parameters[2].value, plan.variant(5).parameters[2].value);
}

}  // namespace
}  // namespace hil::config
