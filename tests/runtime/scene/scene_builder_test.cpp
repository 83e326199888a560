// The run's 3D scene (runtime/scene/scene_builder.hpp) from the shipped rigs and scenarios: the
// wheels where the vehicle's parameters put them, channels the rig has, the terrain over the
// course and its margin, cones and path on the ground.

#include <gtest/gtest.h>

#include <algorithm>
#include <numbers>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/scene/scene_frames.hpp"
#include "runtime/rig.hpp"
#include "runtime/scenario/course_layout.hpp"
#include "runtime/scene/scene_builder.hpp"

namespace hil::runtime {
namespace {

constexpr const char* kRavon = HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt";
constexpr const char* kHmmwv = HIL_SOURCE_DIR "/hil_rigs/hmmwv/rig.pbtxt";

struct Box {
  double x_min = 1e300, x_max = -1e300, y_min = 1e300, y_max = -1e300;
};

Box box_of(const io::scene::TerrainMesh& m) {
  Box b;
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    b.x_min = std::min(b.x_min, m.vertices[3 * v]);
    b.x_max = std::max(b.x_max, m.vertices[3 * v]);
    b.y_min = std::min(b.y_min, m.vertices[3 * v + 1]);
    b.y_max = std::max(b.y_max, m.vertices[3 * v + 1]);
  }
  return b;
}

TEST(SceneBuilder, RavonsWheelsAreWhereItsParametersPutThemOnChannelsItHas) {
  const config::LoadResult loaded = config::load_rig_config(kRavon);
  ASSERT_TRUE(loaded.ok());
  config::RigSpec settings = *loaded.settings;
  settings.can[0].uri = "virtual:scene_builder_test";
  const auto scene = build_scene(settings, nullptr);
  ASSERT_NE(scene, nullptr);
  const models::VehicleParams& p = *settings.vehicle;
  ASSERT_EQ(scene->vehicle.wheels.size(), 4U);
  EXPECT_NEAR(scene->vehicle.wheelbase, 1.206, 1e-9);
  EXPECT_NEAR(scene->vehicle.track, 1.156, 1e-9);
  const char* names[] = {"fl", "fr", "rl", "rr"};
  for (std::size_t w = 0; w < 4; ++w) {
    const io::scene::SceneWheel& wheel = scene->vehicle.wheels[w];
    const models::AxleParams& axle = p.axles[w / 2];
    EXPECT_EQ(wheel.name, names[w]);
    EXPECT_EQ(wheel.x, axle.x);
    EXPECT_EQ(wheel.y, (w % 2 == 0 ? 0.5 : -0.5) * axle.track);
    EXPECT_EQ(wheel.z, axle.z);
    EXPECT_EQ(wheel.radius, axle.tire.diameter / 2);
    EXPECT_EQ(wheel.width, axle.tire.width);
    EXPECT_TRUE(wheel.steered) << "RAVON steers both axles";
  }
  EXPECT_GT(scene->vehicle.body.length, scene->vehicle.wheelbase);
  EXPECT_LT(scene->vehicle.body.width, scene->vehicle.track) << "inside the wheels";
  // every channel it names is the rig's
  const Rig rig(settings);
  EXPECT_NO_THROW(io::scene::SceneFrames(*scene, rig.table()));
  // no course: the 100 m square around the start, nothing on it
  const Box b = box_of(scene->terrain);
  EXPECT_EQ(b.x_min, -50.0);
  EXPECT_EQ(b.x_max, 50.0);
  EXPECT_EQ(b.y_min, -50.0);
  EXPECT_EQ(b.y_max, 50.0);
  EXPECT_TRUE(scene->cones.empty());
  EXPECT_TRUE(scene->path.empty());
}

TEST(SceneBuilder, TheDoubleLaneChangesCourseLiesOnTheTerrainWithItsMargin) {
  config::ScenarioLoadResult loaded =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt", kHmmwv);
  ASSERT_TRUE(loaded.ok());
  const config::ScenarioSpec& scenario = *loaded.scenario;
  const auto scene = build_scene(*loaded.rig, &scenario);
  ASSERT_NE(scene, nullptr);
  const CourseLayout course = course_layout(scenario);
  ASSERT_FALSE(course.cones.empty());
  ASSERT_EQ(scene->cones.size(), course.cones.size());
  ASSERT_EQ(scene->path.size(), course.path.size());
  const models::Terrain& terrain = *loaded.rig->terrain;
  Box course_box;
  for (std::size_t i = 0; i < course.cones.size(); ++i) {
    EXPECT_EQ(scene->cones[i].x, course.cones[i].x);
    EXPECT_EQ(scene->cones[i].z, terrain.height(course.cones[i].x, course.cones[i].y));
    course_box.x_min = std::min(course_box.x_min, course.cones[i].x);
    course_box.x_max = std::max(course_box.x_max, course.cones[i].x);
  }
  for (const WorldPoint& p : course.path) {
    course_box.x_min = std::min(course_box.x_min, p.x);
    course_box.x_max = std::max(course_box.x_max, p.x);
    course_box.y_min = std::min(course_box.y_min, p.y);
    course_box.y_max = std::max(course_box.y_max, p.y);
  }
  const Box mesh = box_of(scene->terrain);
  EXPECT_NEAR(mesh.x_min, std::min(course_box.x_min, scenario.start.x) - kCourseMargin, 1e-9);
  EXPECT_NEAR(mesh.x_max, course_box.x_max + kCourseMargin, 1e-9);
  EXPECT_LE(mesh.y_min, course_box.y_min - kCourseMargin + 1e-9);
  EXPECT_GE(mesh.y_max, course_box.y_max + kCourseMargin - 1e-9);
  EXPECT_LE(scene->terrain.vertex_count(), 65'536U);
  EXPECT_FALSE(scene->vehicle.wheels[2].steered) << "the HMMWV steers the front axle only";
  EXPECT_TRUE(scene->vehicle.wheels[0].steered);
  EXPECT_NEAR(scene->vehicle.wheels[0].radius, 0.47, 0.01);
}

TEST(SceneBuilder, TheScenariosObjectsStandOnTheTerrainTheCourseConesAreNotDrawnTwice) {
  config::ScenarioLoadResult loaded =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/objects_crossing.pbtxt", kRavon);
  ASSERT_TRUE(loaded.ok());
  const auto scene = build_scene(*loaded.rig, &*loaded.scenario);
  ASSERT_NE(scene, nullptr);
  ASSERT_EQ(scene->objects.size(), 3U);
  const io::scene::SceneObject& crate = scene->objects[0];
  EXPECT_EQ(crate.name, "parked_crate");
  EXPECT_EQ(crate.shape, io::scene::SceneObject::Shape::box);
  EXPECT_FALSE(crate.moving);
  EXPECT_EQ(crate.x, 6.0);
  EXPECT_EQ(crate.yaw, 0.1);
  EXPECT_EQ(crate.z, loaded.rig->terrain->height(6.0, -2.5));
  const io::scene::SceneObject& walker = scene->objects[2];
  EXPECT_EQ(walker.kind, "pedestrian");
  EXPECT_EQ(walker.shape, io::scene::SceneObject::Shape::cylinder);
  EXPECT_TRUE(walker.moving);
  EXPECT_EQ(walker.y, -5.0) << "at its path's first point";
  EXPECT_NEAR(walker.yaw, std::numbers::pi / 2, 1e-12) << "along its path";
  // The terrain reaches the lead vehicle's last point (x = 80 m) and its margin
  EXPECT_GE(box_of(scene->terrain).x_max, 80.0 + kCourseMargin - 1e-9);

  // The lane change: its cones are objects of the scenario (for the sensors), drawn as cones
  config::ScenarioLoadResult dlc =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt", kRavon);
  ASSERT_TRUE(dlc.ok());
  EXPECT_FALSE(dlc.scenario->objects.empty());
  EXPECT_TRUE(build_scene(*dlc.rig, &*dlc.scenario)->objects.empty());
}

TEST(SceneBuilder, ALidarsFrameHangsOnTheBodyAtItsMount) {
  const std::filesystem::path overlay = HIL_SOURCE_DIR "/hil_rigs/ravon/perception.pbtxt";
  const config::LoadResult loaded = config::load_rig_config(kRavon, {&overlay, 1});
  ASSERT_TRUE(loaded.ok()) << loaded.errors[0].to_string();
  const auto scene = build_scene(*loaded.settings, nullptr);
  ASSERT_EQ(scene->sensors.size(), 1U);
  EXPECT_EQ(scene->sensors[0].frame, "lidar_roof") << "the frame_id of /lidar/roof's clouds";
  config::RigSpec settings = *loaded.settings;
  for (auto& bus : settings.can) bus.uri = "virtual:scene_builder_test_" + bus.name;
  const Rig rig(settings);
  const io::scene::SceneFrames frames(*scene, rig.table());
  ASSERT_EQ(frames.frame_count(), 1U + 2 * 4 + 1);
  std::vector<io::scene::FrameTransformValue> out;
  frames.frames(rig.table().values(), out);
  ASSERT_EQ(out.size(), frames.frame_count());
  const io::scene::FrameTransformValue& lidar = out.back();
  EXPECT_EQ(*lidar.parent, "body");
  EXPECT_EQ(*lidar.child, "lidar_roof");
  // perception.pbtxt: mount { x: 0.2 z: 0.6 }, not turned
  EXPECT_EQ(lidar.translation[0], 0.2);
  EXPECT_EQ(lidar.translation[1], 0.0);
  EXPECT_EQ(lidar.translation[2], 0.6);
  EXPECT_EQ(lidar.rotation.w, 1.0);
}

TEST(SceneBuilder, ARigWithoutAVehicleHasNoScene) {
  config::LoadResult loaded = config::load_rig_config(kRavon);
  ASSERT_TRUE(loaded.ok());
  loaded.settings->vehicle.reset();
  EXPECT_EQ(build_scene(*loaded.settings, nullptr), nullptr);
}

}  // namespace
}  // namespace hil::runtime
