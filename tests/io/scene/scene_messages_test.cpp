// The scene's Foxglove messages (io/scene/scene_messages.hpp), decoded with the generated
// classes: the terrain mesh, cones and path in /scene/world, the vehicle's primitives in their
// frames, the tire force arrows (1 m per 2 kN along the force), the trail.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "io/scene/foxglove/FrameTransform.pb.h"
#include "io/scene/foxglove/PosesInFrame.pb.h"
#include "io/scene/foxglove/SceneUpdate.pb.h"
#include "io/scene/scene_messages.hpp"
#include "tests/io/scene/scene_fixture.hpp"

namespace hil::io::scene {
namespace {

using testing::SceneTable;
using testing::two_axle_scene;

constexpr std::uint64_t kStamp = 1'700'000'001'500'000'000;

template <class M>
M decode(const std::vector<std::uint8_t>& bytes) {
  M m;
  EXPECT_TRUE(m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  return m;
}

const foxglove::SceneEntity& entity(const foxglove::SceneUpdate& u, const std::string& id) {
  for (const foxglove::SceneEntity& e : u.entities()) {
    if (e.id() == id) return e;
  }
  throw std::runtime_error("no entity " + id);
}

TEST(SceneMessages, TheWorldHoldsTheTerrainMeshConesAndPath) {
  const Scene scene = two_axle_scene();
  const SceneTable table(scene);
  const SceneMessages messages(scene, table);
  const auto u = decode<foxglove::SceneUpdate>(messages.static_message(SceneTopic::world, kStamp));
  const foxglove::SceneEntity& terrain = entity(u, "terrain");
  EXPECT_EQ(terrain.frame_id(), "world");
  EXPECT_EQ(terrain.timestamp().seconds(), 1'700'000'001);
  EXPECT_EQ(terrain.timestamp().nanos(), 500'000'000);
  EXPECT_EQ(terrain.lifetime().seconds(), 0);
  ASSERT_EQ(terrain.triangles_size(), 1);
  const foxglove::TriangleListPrimitive& mesh = terrain.triangles(0);
  ASSERT_EQ(mesh.points_size(), 6);
  ASSERT_EQ(mesh.colors_size(), 6);
  for (int v = 0; v < 6; ++v) {
    const std::size_t at = 3 * static_cast<std::size_t>(v);
    EXPECT_EQ(mesh.points(v).x(), scene.terrain.vertices[at]);
    EXPECT_EQ(mesh.points(v).y(), scene.terrain.vertices[at + 1]);
    EXPECT_EQ(mesh.points(v).z(), scene.terrain.vertices[at + 2]);
    EXPECT_EQ(mesh.colors(v).g(), scene.terrain.colors[at + 1]);
    EXPECT_EQ(mesh.colors(v).a(), 1.0);
  }
  EXPECT_EQ(std::vector<std::uint32_t>(mesh.indices().begin(), mesh.indices().end()),
            scene.terrain.indices);
  const foxglove::SceneEntity& cones = entity(u, "cones");
  ASSERT_EQ(cones.cylinders_size(), 2);
  const foxglove::CylinderPrimitive& cone = cones.cylinders(1);
  EXPECT_EQ(cone.pose().position().x(), 5);
  EXPECT_EQ(cone.pose().position().y(), -2);
  EXPECT_DOUBLE_EQ(cone.pose().position().z(), 0.5 + kConeHeight / 2) << "standing on the ground";
  EXPECT_EQ(cone.size().x(), kConeDiameter);
  EXPECT_EQ(cone.size().z(), kConeHeight);
  EXPECT_EQ(cone.top_scale(), 0.0) << "a cone";
  EXPECT_EQ(cone.bottom_scale(), 1.0);
  const foxglove::SceneEntity& path = entity(u, "path");
  ASSERT_EQ(path.lines_size(), 1);
  EXPECT_EQ(path.lines(0).type(), foxglove::LinePrimitive::LINE_STRIP);
  ASSERT_EQ(path.lines(0).points_size(), 3);
  EXPECT_EQ(path.lines(0).points(2).y(), 10);
}

TEST(SceneMessages, TheVehicleIsABodyBoxAndAWheelPerWheelFrameLockedToThem) {
  const Scene scene = two_axle_scene();
  const SceneTable table(scene);
  const auto u = decode<foxglove::SceneUpdate>(
      SceneMessages(scene, table).static_message(SceneTopic::vehicle, kStamp));
  ASSERT_EQ(u.entities_size(), 5);
  const foxglove::SceneEntity& body = entity(u, "body");
  EXPECT_EQ(body.frame_id(), "body");
  EXPECT_TRUE(body.frame_locked());
  ASSERT_EQ(body.cubes_size(), 1);
  EXPECT_EQ(body.cubes(0).size().x(), 2.8);
  EXPECT_EQ(body.cubes(0).size().y(), 1.3);
  EXPECT_EQ(body.cubes(0).size().z(), 0.8);
  EXPECT_EQ(body.cubes(0).pose().position().z(), 0.1);
  for (const char* name : {"fl", "fr", "rl", "rr"}) {
    const foxglove::SceneEntity& w = entity(u, std::string("wheel_") + name);
    EXPECT_EQ(w.frame_id(), std::string("wheel_") + name);
    EXPECT_TRUE(w.frame_locked());
    ASSERT_EQ(w.cylinders_size(), 1);
    EXPECT_EQ(w.cylinders(0).size().x(), 0.8) << "the tire's diameter";
    EXPECT_EQ(w.cylinders(0).size().z(), 0.25) << "its width, along the axle";
    // the cylinder's axis (its z) turned onto the wheel's y
    const auto& q = w.cylinders(0).pose().orientation();
    const Vec3 axis = rotate({.x = q.x(), .y = q.y(), .z = q.z(), .w = q.w()}, {0, 0, 1});
    EXPECT_NEAR(std::abs(axis[1]), 1.0, 1e-12);
  }
}

TEST(SceneMessages, ForceArrowsPointAlongTheTireForceAtOneMetrePerTwoKilonewtons) {
  const Scene scene = two_axle_scene();
  SceneTable table(scene);
  table.put("vehicle.wheel.fl.longitudinal_force", 3000.0);
  table.put("vehicle.wheel.fl.lateral_force", 4000.0);
  SceneMessages messages(scene, table);
  std::vector<std::uint8_t> bytes;
  messages.forces(table.values(), kStamp, [&](auto m) { bytes.assign(m.begin(), m.end()); });
  const auto u = decode<foxglove::SceneUpdate>(bytes);
  ASSERT_EQ(u.entities_size(), 4);
  const foxglove::SceneEntity& fl = entity(u, "force_fl");
  EXPECT_EQ(fl.frame_id(), "hub_fl");
  ASSERT_EQ(fl.arrows_size(), 1);
  const foxglove::ArrowPrimitive& a = fl.arrows(0);
  EXPECT_DOUBLE_EQ(a.shaft_length() + a.head_length(), 5000.0 / 2000.0);
  EXPECT_EQ(a.pose().position().z(), -0.4) << "at the contact patch, a radius below the hub";
  const auto& q = a.pose().orientation();
  const Vec3 along = rotate({.x = q.x(), .y = q.y(), .z = q.z(), .w = q.w()}, {1, 0, 0});
  EXPECT_NEAR(along[0], 0.6, 1e-12);
  EXPECT_NEAR(along[1], 0.8, 1e-12);
  const foxglove::ArrowPrimitive& rr = entity(u, "force_rr").arrows(0);
  EXPECT_EQ(rr.shaft_length() + rr.head_length(), 0.0) << "no force, no arrow";
}

TEST(SceneMessages, TransformsAreOneMessagePerFrameStampedWithTheTick) {
  const Scene scene = two_axle_scene();
  SceneTable table(scene);
  table.put("vehicle.body.yaw", std::numbers::pi / 2);
  SceneMessages messages(scene, table);
  std::vector<foxglove::FrameTransform> tf;
  messages.transforms(table.values(), kStamp, [&](auto m) {
    tf.push_back(decode<foxglove::FrameTransform>({m.begin(), m.end()}));
  });
  ASSERT_EQ(tf.size(), 9U);
  EXPECT_EQ(tf[0].parent_frame_id(), "world");
  EXPECT_NEAR(tf[0].rotation().z(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(tf[0].rotation().w(), std::sqrt(0.5), 1e-15);
  EXPECT_EQ(tf[8].child_frame_id(), "wheel_rr");
  for (const auto& t : tf) EXPECT_EQ(t.timestamp().nanos(), 500'000'000);
}

TEST(SceneMessages, PathAndTrailArePosesHeadingAlongThemselves) {
  const Scene scene = two_axle_scene();
  const SceneTable table(scene);
  SceneMessages messages(scene, table);
  const auto path =
      decode<foxglove::PosesInFrame>(messages.static_message(SceneTopic::path, kStamp));
  EXPECT_EQ(path.frame_id(), "world");
  ASSERT_EQ(path.poses_size(), 3);
  EXPECT_NEAR(path.poses(1).orientation().z(), std::sin(std::numbers::pi / 4), 1e-12)
      << "from (10, 0) north to (10, 10)";
  SceneTrail trail;
  trail.add(0, 0, 0);
  trail.add(1, 0, 0);
  std::vector<std::uint8_t> bytes;
  messages.trail(trail, kStamp, [&](auto m) { bytes.assign(m.begin(), m.end()); });
  const auto t = decode<foxglove::PosesInFrame>(bytes);
  ASSERT_EQ(t.poses_size(), 2);
  EXPECT_EQ(t.poses(1).position().x(), 1);
  EXPECT_THROW((void)messages.static_message(SceneTopic::tf, kStamp), std::invalid_argument);
}

}  // namespace
}  // namespace hil::io::scene
