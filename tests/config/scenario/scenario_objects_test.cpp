// A scenario's objects (config/scenario/scenario_objects.hpp): sizes and radar cross-sections
// by kind, positions and paths from the course frame to the world through the start pose, the
// lane gates' cones as objects, and every mistake located at its file:line:column and field.

#include "config/scenario/scenario_objects.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "config/scenario/scenario_spec.hpp"

namespace hil::config {
namespace {

const std::string kRavon = HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt";
const std::string kHead =
    "duration_s: 10\n"
    "drive { straight { speeds { at_s: 0 speed: 1 } } }\n";

ScenarioLoadResult load(std::string_view text) {
  return load_scenario_text({"objects.pbtxt", std::string(text)}, kRavon);
}

std::vector<std::string> errors_of(std::string_view text) {
  const ScenarioLoadResult r = load(text);
  EXPECT_FALSE(r.ok());
  std::vector<std::string> out;
  for (const ConfigError& e : r.errors) out.push_back(e.to_string());
  return out;
}

const models::MovingObjectSpec& named(const ScenarioSpec& s, std::string_view name) {
  for (const models::MovingObjectSpec& o : s.objects) {
    if (o.object.name == name) return o;
  }
  throw std::out_of_range(std::string(name));
}

TEST(ScenarioObjects, CourseFrameMapsToTheWorldThroughTheStartPose) {
  // Start at (10, 5) heading north: course x is world +y, course y is world −x
  const ScenarioLoadResult r = load(kHead + std::string(R"(
start { x: 10 y: 5 yaw: 1.5707963267948966 }
objects { name: "crate" x: 2 y: 1 yaw: 0.5 length: 2 width: 1 height: 0.8 rcs_dbsm: 3 }
objects { name: "walker" kind: PEDESTRIAN
          path { x: 6 y: -3 speed: 1.4 } path { x: 6 y: 3 } start_when: "vehicle.body.position.y > 7" }
)"));
  for (const ConfigError& e : r.errors) ADD_FAILURE() << e.to_string();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.scenario->objects.size(), 2U) << "a straight drive has no cones";
  const models::MovingObjectSpec& crate = named(*r.scenario, "crate");
  EXPECT_NEAR(crate.start.x, 10.0 - 1.0, 1e-12);
  EXPECT_NEAR(crate.start.y, 5.0 + 2.0, 1e-12);
  EXPECT_NEAR(crate.start.yaw, 0.5 + std::numbers::pi / 2, 1e-12);
  EXPECT_EQ(crate.object.shape, models::ObjectShape::box);
  EXPECT_EQ(crate.object.kind, models::ObjectKind::obstacle);
  EXPECT_EQ(crate.object.length, 2.0);
  EXPECT_EQ(crate.object.height, 0.8);
  EXPECT_EQ(crate.object.rcs_dbsm, 3.0);
  EXPECT_TRUE(crate.path.empty());

  const models::MovingObjectSpec& walker = named(*r.scenario, "walker");
  ASSERT_EQ(walker.path.size(), 2U);
  EXPECT_NEAR(walker.path[0].x, 10.0 + 3.0, 1e-12);
  EXPECT_NEAR(walker.path[0].y, 5.0 + 6.0, 1e-12);
  EXPECT_NEAR(walker.path[1].x, 10.0 - 3.0, 1e-12);
  EXPECT_EQ(walker.path[1].speed, 1.4) << "the previous point's speed";
  EXPECT_NEAR(walker.start.yaw, std::numbers::pi, 1e-12) << "along its path: world −x";
  EXPECT_EQ(walker.start_when, "vehicle.body.position.y > 7");
  EXPECT_EQ(walker.max_acceleration, 2.0);
  // A pedestrian's defaults: an upright cylinder 0.5 m across, 1.8 m tall, −5 dBsm
  EXPECT_EQ(walker.object.shape, models::ObjectShape::cylinder);
  EXPECT_EQ(walker.object.width, 0.5);
  EXPECT_EQ(walker.object.height, 1.8);
  EXPECT_EQ(walker.object.rcs_dbsm, -5.0);
}

TEST(ScenarioObjects, AVehicleWithAPathHasACarsSize) {
  const ScenarioLoadResult r = load(kHead + std::string(R"(
objects { name: "lead" path { x: 8 y: 0 speed: 2 } path { x: 60 y: 0 } start_s: 1
          max_acceleration: 1 }
)"));
  ASSERT_TRUE(r.ok());
  const models::MovingObjectSpec& lead = named(*r.scenario, "lead");
  EXPECT_EQ(lead.object.kind, models::ObjectKind::vehicle);
  EXPECT_EQ(lead.object.shape, models::ObjectShape::box);
  EXPECT_EQ(lead.object.length, 4.5);
  EXPECT_EQ(lead.object.width, 1.8);
  EXPECT_EQ(lead.object.height, 1.5);
  EXPECT_EQ(lead.object.rcs_dbsm, 10.0);
  EXPECT_EQ(lead.start_s, 1.0);
  EXPECT_EQ(lead.max_acceleration, 1.0);
}

TEST(ScenarioObjects, TheLaneChangesConesAreObjects) {
  const ScenarioLoadResult r =
      load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt", kRavon);
  ASSERT_TRUE(r.ok());
  const std::vector<CoursePoint> cones = lane_gate_cones(r.scenario->gates);
  ASSERT_FALSE(cones.empty());
  ASSERT_EQ(r.scenario->objects.size(), cones.size());
  for (std::size_t i = 0; i < cones.size(); ++i) {
    const models::MovingObjectSpec& c = r.scenario->objects[i];
    EXPECT_EQ(c.object.name, "cone_" + std::to_string(i + 1));
    EXPECT_TRUE(c.course_cone);
    EXPECT_EQ(c.object.shape, models::ObjectShape::cone);
    EXPECT_EQ(c.object.width, 0.3);
    EXPECT_EQ(c.object.height, 0.5);
    EXPECT_EQ(c.object.rcs_dbsm, -10.0);
    EXPECT_TRUE(c.path.empty());
  }
  // Section 1's first station: both edges of its lane, 1.1·b + 0.25 apart
  EXPECT_EQ(cones[0].x, cones[1].x);
  EXPECT_GT(cones[1].y - cones[0].y, 1.0);
}

TEST(ScenarioObjectErrors, EachMistakeIsLocatedAtItsField) {
  EXPECT_EQ(errors_of(kHead + std::string("objects { name: \"p\" kind: PEDESTRIAN\n"
                                          "  path { x: 0 y: 0 speed: 1 } }\n")),
            std::vector<std::string>{
                "objects.pbtxt:3:1: objects[0].path: 1 point(s); expected at least 2"});
  EXPECT_EQ(errors_of(kHead + std::string("objects { name: \"p\"\n"
                                          "  path { x: 0 y: 0 }\n"
                                          "  path { x: 0 y: 0 speed: -2 } }\n")),
            (std::vector<std::string>{
                "objects.pbtxt:4:3: objects[0].path[0].speed: missing; expected the speed from "
                "the first point on [m/s]",
                "objects.pbtxt:5:27: objects[0].path[1].speed: -2 is out of range; expected 0 < "
                "speed ≤ 100 (m/s)",
                "objects.pbtxt:5:3: objects[0].path[1]: the same point as the previous one; "
                "expected points apart"}));
  EXPECT_EQ(errors_of(kHead + std::string("objects { name: \"Box A\" }\n"
                                          "objects { name: \"b\" width: 0 }\n"
                                          "objects { name: \"b\" start_s: 1 }\n")),
            (std::vector<std::string>{
                "objects.pbtxt:3:17: objects[0].name: \"Box A\": expected a lower snake case "
                "name (its channels are world.<name>.*)",
                "objects.pbtxt:4:28: objects[1].width: 0 is out of range; expected 0 < size ≤ "
                "1000 (m)",
                "objects.pbtxt:5:17: objects[2].name: \"b\" is not unique",
                "objects.pbtxt:5:30: objects[2].start_s: only for a moving object (a path)"}));
}

TEST(ScenarioObjectErrors, AStartConditionOnAMisspeltChannelSuggestsTheRightOne) {
  EXPECT_EQ(errors_of(kHead + std::string("objects { name: \"p\" kind: PEDESTRIAN\n"
                                          "  path { x: 0 y: 0 speed: 1 } path { x: 0 y: 5 }\n"
                                          "  start_when: \"vehicle.body.position.z > 1\"\n"
                                          "  start_s: 2 }\n"
                                          "objects { name: \"q\" path { x: 0 y: 0 speed: 1 }"
                                          " path { x: 0 y: 5 }\n"
                                          "  start_when: \"vehicle.body.positon.x > 1\" }\n"
                                          "objects { name: \"r\" path { x: 0 y: 0 speed: 1 }"
                                          " path { x: 0 y: 5 }\n"
                                          "  start_when: \"world.p.moving\" }\n")),
            (std::vector<std::string>{
                "objects.pbtxt:5:15: objects[0].start_when: both start_s and start_when; "
                "expected one",
                "objects.pbtxt:8:15: objects[1].start_when: \"vehicle.body.positon.x\" is not a "
                "channel of the rig (did you mean vehicle.body.position.x?); expected one of its "
                "channels (hilsim check --print), a marker or an object's",
                "objects.pbtxt:10:15: objects[2].start_when: 'world.p.moving': no comparison "
                "(expected CHANNEL OP VALUE with OP one of > < >= <= == !=, e.g. "
                "'vehicle.body.speed > 0.9')"}));
}

TEST(ScenarioObjectErrors, AnObjectCannotTakeACourseConesName) {
  std::ifstream in(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text += "\nobjects { name: \"cone_3\" }\n";
  const ScenarioLoadResult r = load_scenario_text({"dlc.pbtxt", text}, kRavon);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_NE(r.errors[0].to_string().find(
                "objects[0].name: \"cone_3\" is the name of one of the course's cones"),
            std::string::npos)
      << r.errors[0].to_string();
}

}  // namespace
}  // namespace hil::config
