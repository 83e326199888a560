// The scenario's objects in the scene (io/scene/scene.hpp SceneObject): a static one in
// /scene/world, a moving one in /scene/objects at its channels' values of the tick (a cube
// turned by its yaw, an upright cylinder, a cylinder narrowing to a point for a cone, each
// standing on its base), none of it without objects, and the page's `scene` message.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "io/scene/foxglove/SceneUpdate.pb.h"
#include "io/scene/scene_json.hpp"
#include "io/scene/scene_messages.hpp"
#include "tests/io/scene/scene_fixture.hpp"

namespace hil::io::scene {
namespace {

constexpr std::uint64_t kStamp = 1'700'000'001'500'000'000;

Scene scene_with_objects() {
  Scene s = testing::two_axle_scene();
  s.objects = {{.name = "crate",
                .shape = SceneObject::Shape::box,
                .kind = "obstacle",
                .length = 2,
                .width = 1,
                .height = 0.8,
                .x = 6,
                .y = -2.5,
                .z = 0.6,
                .yaw = std::numbers::pi / 2,
                .color = kObstacleColor},
               {.name = "walker",
                .shape = SceneObject::Shape::cylinder,
                .kind = "pedestrian",
                .length = 0.5,
                .width = 0.5,
                .height = 1.8,
                .x = 14,
                .y = -5,
                .moving = true,
                .color = kPedestrianColor},
               {.name = "cone_like",
                .shape = SceneObject::Shape::cone,
                .width = 0.3,
                .height = 0.5,
                .moving = true,
                .color = kConeColor}};
  return s;
}

/// The scene's table and the moving objects' channels.
struct ObjectTable : rt::ChannelTable {
  explicit ObjectTable(const Scene& s) {
    for (const std::string* n : {&s.channels.x, &s.channels.y, &s.channels.z, &s.channels.roll,
                                 &s.channels.pitch, &s.channels.yaw}) {
      add({.name = *n, .unit = "m"});
    }
    for (const SceneWheelChannels& w : s.channels.wheels) {
      for (const std::string* n : {&w.spin, &w.steer, &w.travel, &w.fx, &w.fy, &w.fz}) {
        add({.name = *n, .unit = "-"});
      }
    }
    for (const SceneObject& o : s.objects) {
      if (!o.moving) continue;
      for (const char* c : {"x", "y", "z", "yaw"}) add({.name = object_channel(o, c), .unit = "m"});
    }
    freeze();
  }
  void put(const std::string& name, double v) { set(resolve(name), v); }
};

const foxglove::SceneEntity* find(const foxglove::SceneUpdate& u, const std::string& id) {
  for (const foxglove::SceneEntity& e : u.entities()) {
    if (e.id() == id) return &e;
  }
  return nullptr;
}

TEST(SceneObjects, AStaticObjectIsInTheWorldStandingOnItsBaseTurnedByItsYaw) {
  const Scene scene = scene_with_objects();
  const ObjectTable table(scene);
  foxglove::SceneUpdate world;
  const std::vector<std::uint8_t> bytes =
      SceneMessages(scene, table).static_message(SceneTopic::world, kStamp);
  ASSERT_TRUE(world.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  const foxglove::SceneEntity* crate = find(world, "object_crate");
  ASSERT_NE(crate, nullptr);
  EXPECT_EQ(crate->frame_id(), "world");
  ASSERT_EQ(crate->cubes_size(), 1);
  const foxglove::CubePrimitive& c = crate->cubes(0);
  EXPECT_EQ(c.pose().position().x(), 6.0);
  EXPECT_EQ(c.pose().position().z(), 0.6 + 0.4) << "its centre: half its height above its base";
  EXPECT_NEAR(c.pose().orientation().z(), std::sin(std::numbers::pi / 4), 1e-15);
  EXPECT_NEAR(c.pose().orientation().w(), std::cos(std::numbers::pi / 4), 1e-15);
  EXPECT_EQ(c.size().x(), 2.0);
  EXPECT_EQ(c.size().y(), 1.0);
  EXPECT_EQ(c.size().z(), 0.8);
  EXPECT_EQ(find(world, "object_walker"), nullptr) << "a moving object is in /scene/objects";
  EXPECT_NE(find(world, "cones"), nullptr) << "the course's cones are still drawn, once";
}

TEST(SceneObjects, MovingObjectsAreAtTheirChannelsOfTheTick) {
  const Scene scene = scene_with_objects();
  ObjectTable table(scene);
  table.put("world.walker.x", 14.0);
  table.put("world.walker.y", 1.25);
  table.put("world.walker.z", 1.4);
  table.put("world.walker.yaw", std::numbers::pi / 2);
  table.put("world.cone_like.x", -3.0);
  SceneMessages messages(scene, table);
  std::vector<std::vector<std::uint8_t>> sent;
  messages.objects(table.values(), kStamp, [&](auto m) { sent.emplace_back(m.begin(), m.end()); });
  ASSERT_EQ(sent.size(), 1U);
  foxglove::SceneUpdate u;
  ASSERT_TRUE(u.ParseFromArray(sent[0].data(), static_cast<int>(sent[0].size())));
  ASSERT_EQ(u.entities_size(), 2);
  const foxglove::SceneEntity* walker = find(u, "object_walker");
  ASSERT_NE(walker, nullptr);
  EXPECT_EQ(walker->timestamp().seconds(), 1'700'000'001);
  ASSERT_EQ(walker->cylinders_size(), 1);
  const foxglove::CylinderPrimitive& w = walker->cylinders(0);
  EXPECT_EQ(w.pose().position().y(), 1.25);
  EXPECT_EQ(w.pose().position().z(), 1.4 + 0.9);
  EXPECT_EQ(w.size().x(), 0.5);
  EXPECT_EQ(w.size().z(), 1.8);
  EXPECT_EQ(w.bottom_scale(), 1.0);
  EXPECT_EQ(w.top_scale(), 1.0);
  const foxglove::CylinderPrimitive& cone = find(u, "object_cone_like")->cylinders(0);
  EXPECT_EQ(cone.pose().position().x(), -3.0);
  EXPECT_EQ(cone.top_scale(), 0.0) << "a cone narrows to its apex";

  // Without a moving object: no message at all
  Scene still = testing::two_axle_scene();
  const testing::SceneTable plain(still);
  SceneMessages none(still, plain);
  sent.clear();
  none.objects(plain.values(), kStamp, [&](auto m) { sent.emplace_back(m.begin(), m.end()); });
  EXPECT_TRUE(sent.empty());
  // A moving object's channel the table lacks is named
  try {
    (void)SceneMessages(scene, plain);
    FAIL() << "built without the objects' channels";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("world.walker.x"), std::string::npos) << e.what();
  }
}

TEST(SceneObjects, ThePagesSceneMessageListsThemWithTheirChannels) {
  const nlohmann::json j = scene_json(scene_with_objects());
  ASSERT_EQ(j["objects"].size(), 3U);
  const nlohmann::json& crate = j["objects"][0];
  EXPECT_EQ(crate["name"], "crate");
  EXPECT_EQ(crate["shape"], "box");
  EXPECT_EQ(crate["kind"], "obstacle");
  EXPECT_EQ(crate["length"], 2.0);
  EXPECT_EQ(crate["z"], 0.6);
  EXPECT_TRUE(crate["channels"].is_null()) << "a static object stays where it is";
  const nlohmann::json& walker = j["objects"][1];
  EXPECT_EQ(walker["shape"], "cylinder");
  EXPECT_EQ(walker["channels"]["x"], "world.walker.x");
  EXPECT_EQ(walker["channels"]["yaw"], "world.walker.yaw");
  EXPECT_EQ(j["objects"][2]["shape"], "cone");
  EXPECT_EQ(scene_json(testing::two_axle_scene())["objects"], nlohmann::json::array());
}

}  // namespace
}  // namespace hil::io::scene
