// The objects' stage (runtime/world/world_objects_stage.hpp) in the tick: its channels, a
// target started at its time and one started by a channel condition at the tick it holds,
// the objects standing on the terrain, a condition on a channel the rig does not have.

#include "runtime/world/world_objects_stage.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "models/terrain/terrain_incline.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::runtime {
namespace {

constexpr double kPeriod = 0.001;  // [s] 1 kHz ticks

models::MovingObjectSpec crate() {
  models::MovingObjectSpec s;
  s.object = {.name = "crate", .length = 2, .width = 1, .height = 1};
  s.start = {.x = 10, .y = 3, .yaw = 0.25};
  return s;
}

/// 40 m along +y at 5 m/s, 2.5 m/s²: up in 2 s (5 m), 6 s at 5 m/s, down in 2 s.
models::MovingObjectSpec walker(const char* name) {
  models::MovingObjectSpec s;
  s.object = {.name = name, .kind = models::ObjectKind::pedestrian};
  s.path = {{.x = 0, .y = 0, .speed = 5}, {.x = 0, .y = 40, .speed = 5}};
  s.max_acceleration = 2.5;
  return s;
}

struct World {
  models::InclineTerrain terrain{{.grade_percent = 10.0, .rise_direction = 0.0, .z0 = 1.0}};
  rt::ChannelTable table;
  rt::ChannelId trigger =
      table.add({.name = "scenario.go", .unit = "-", .direction = rt::Direction::input});
  std::unique_ptr<WorldObjectsStage> stage;

  explicit World(std::vector<models::MovingObjectSpec> objects) {
    stage = std::make_unique<WorldObjectsStage>(std::move(objects), terrain, table, kPeriod);
    table.freeze();
    stage->bind(table);
  }
  void run(std::int64_t tick) {
    stage->run({.tick = tick, .time = tick * 1'000'000, .dt = 1'000'000, .dt_s = kPeriod});
  }
  double get(const std::string& name) const { return table.get(table.resolve(name)); }
};

TEST(WorldObjectsStage, WritesEveryObjectsChannelsWithUnits) {
  World w({crate()});
  for (const auto& [what, unit] : {std::pair{"x", "m"},
                                   {"y", "m"},
                                   {"z", "m"},
                                   {"yaw", "rad"},
                                   {"speed", "m/s"},
                                   {"moving", "-"}}) {
    const std::optional<rt::ChannelId> id = w.table.find(std::string("world.crate.") + what);
    ASSERT_TRUE(id.has_value()) << what;
    EXPECT_EQ(w.table.spec(*id).unit, unit) << what;
    EXPECT_EQ(w.table.spec(*id).direction, rt::Direction::output);
  }
  // Before the first tick, the channels hold the start pose
  EXPECT_EQ(w.get("world.crate.x"), 10.0);
  w.run(0);
  EXPECT_EQ(w.get("world.crate.x"), 10.0);
  EXPECT_EQ(w.get("world.crate.y"), 3.0);
  EXPECT_EQ(w.get("world.crate.yaw"), 0.25);
  // On the 10 % incline rising along x from 1 m: z = 1 + 0.1·10
  EXPECT_NEAR(w.get("world.crate.z"), 2.0, 1e-12);
  EXPECT_EQ(w.get("world.crate.moving"), 0.0);
  ASSERT_EQ(w.stage->objects().size(), 1U);
  EXPECT_EQ(w.stage->objects()[0].name, "crate");
  EXPECT_EQ(w.stage->states()[0].x, 10.0);
}

TEST(WorldObjectsStage, TheCourseConesHaveAStateButNoChannels) {
  models::MovingObjectSpec cone;
  cone.object = {.name = "cone_1", .shape = models::ObjectShape::cone};
  cone.start = {.x = 20, .y = 1};
  cone.course_cone = true;
  World w({cone, crate()});
  const std::size_t channels = w.table.size();
  EXPECT_FALSE(w.table.find("world.cone_1.x").has_value());
  EXPECT_EQ(channels, 1U + 6U) << "the trigger and the crate's six";
  w.run(0);
  ASSERT_EQ(w.stage->states().size(), 2U);
  EXPECT_EQ(w.stage->objects()[0].name, "cone_1");
  EXPECT_EQ(w.stage->states()[0].x, 20.0);
  EXPECT_NEAR(w.stage->states()[0].z, 3.0, 1e-12) << "on the incline: 1 + 0.1·20";
}

TEST(WorldObjectsStage, StartsATargetAtItsTime) {
  models::MovingObjectSpec s = walker("timed");
  s.start_s = 1.0;
  World w({s});
  for (std::int64_t k = 0; k < 1000; ++k) w.run(k);  // up to 0.999 s: waiting
  EXPECT_EQ(w.get("world.timed.y"), 0.0);
  EXPECT_EQ(w.get("world.timed.moving"), 0.0);
  w.run(1000);  // 1 s: starts, at rest
  EXPECT_EQ(w.get("world.timed.moving"), 1.0);
  w.run(2000);  // 1 s after its start: s = a·t²/2 = 1.25 m, v = 2.5 m/s
  EXPECT_NEAR(w.get("world.timed.y"), 1.25, 1e-12);
  EXPECT_NEAR(w.get("world.timed.speed"), 2.5, 1e-12);
  EXPECT_NEAR(w.get("world.timed.yaw"), M_PI / 2, 1e-12);
  w.run(6000);  // 5 s after: 5 m + 3 s at 5 m/s
  EXPECT_NEAR(w.get("world.timed.y"), 20.0, 1e-9);
  w.run(12000);  // past its 10 s: stopped at the end
  EXPECT_EQ(w.get("world.timed.y"), 40.0);
  EXPECT_EQ(w.get("world.timed.speed"), 0.0);
  EXPECT_EQ(w.get("world.timed.moving"), 0.0);
}

TEST(WorldObjectsStage, StartsATargetAtTheTickItsConditionHolds) {
  models::MovingObjectSpec s = walker("triggered");
  s.start_when = "scenario.go > 0.5";
  World w({s});
  for (std::int64_t k = 0; k < 3000; ++k) w.run(k);
  EXPECT_EQ(w.get("world.triggered.moving"), 0.0) << "the condition never held";
  w.table.set(w.trigger, 1.0);
  w.run(3000);                  // holds: starts now
  w.table.set(w.trigger, 0.0);  // and keeps going when it no longer holds
  w.run(4000);
  EXPECT_EQ(w.get("world.triggered.moving"), 1.0);
  EXPECT_NEAR(w.get("world.triggered.y"), 1.25, 1e-12);
  EXPECT_NEAR(w.get("world.triggered.z"), 1.0, 1e-12) << "x = 0 on the incline";
}

TEST(WorldObjectsStage, RefusesAConditionOnAChannelItDoesNotKnow) {
  models::MovingObjectSpec s = walker("lost");
  s.start_when = "vehicle.body.nope > 1";
  models::InclineTerrain terrain({});
  rt::ChannelTable table;
  WorldObjectsStage stage({s}, terrain, table, kPeriod);
  table.freeze();
  try {
    stage.bind(table);
    FAIL() << "bound an unknown channel";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lost"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("vehicle.body.nope"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hil::runtime
