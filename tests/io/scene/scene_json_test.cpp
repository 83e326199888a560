// The page's `scene` message (io/scene/scene_json.hpp) as the scene contract spells it.

#include <gtest/gtest.h>

#include "io/scene/scene_json.hpp"
#include "tests/io/scene/scene_fixture.hpp"

namespace hil::io::scene {
namespace {

TEST(SceneJson, HasTheContractsFields) {
  Scene scene = testing::two_axle_scene();
  scene.terrain.vertices[0] = 1.23456789;
  const nlohmann::json j = scene_json(scene);
  EXPECT_EQ(j["vehicle"]["wheelbase"], 2.0);
  EXPECT_EQ(j["vehicle"]["track"], 1.5);
  EXPECT_EQ(j["vehicle"]["body"]["z"], 0.1);
  ASSERT_EQ(j["vehicle"]["wheels"].size(), 4U);
  EXPECT_EQ(j["vehicle"]["wheels"][1]["name"], "fr");
  EXPECT_EQ(j["vehicle"]["wheels"][1]["y"], -0.75);
  EXPECT_EQ(j["vehicle"]["wheels"][1]["radius"], 0.4);
  EXPECT_EQ(j["vehicle"]["wheels"][1]["steered"], true);
  EXPECT_EQ(j["vehicle"]["wheels"][3]["steered"], false);
  EXPECT_EQ(j["terrain"]["vertices"].size(), 18U);
  EXPECT_EQ(j["terrain"]["vertices"][0].dump(), "1.235") << "to the millimetre";
  EXPECT_EQ(j["terrain"]["colors"].size(), 18U);
  EXPECT_EQ(j["terrain"]["indices"].size(), 12U);
  EXPECT_EQ(j["terrain"]["surfaces"][0]["name"], "dry");
  EXPECT_EQ(j["cones"], nlohmann::json::parse("[[5, 2], [5, -2]]"));
  EXPECT_EQ(j["path"][2], nlohmann::json::parse("[10, 10]"));
  EXPECT_EQ(j["channels"]["x"], "vehicle.body.position.x");
  EXPECT_EQ(j["channels"]["yaw"], "vehicle.body.yaw");
  const nlohmann::json& rl = j["channels"]["wheels"][2];
  EXPECT_EQ(rl["name"], "rl");
  EXPECT_EQ(rl["spin"], "vehicle.wheel.rl.angle");
  EXPECT_EQ(rl["steer"], "vehicle.wheel.rl.steer_angle");
  EXPECT_EQ(rl["travel"], "vehicle.wheel.rl.suspension_travel");
  EXPECT_EQ(rl["fx"], "vehicle.wheel.rl.longitudinal_force");
  EXPECT_EQ(rl["fy"], "vehicle.wheel.rl.lateral_force");
  EXPECT_EQ(rl["fz"], "vehicle.wheel.rl.normal_force");
}

}  // namespace
}  // namespace hil::io::scene
