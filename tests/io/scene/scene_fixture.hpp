#pragma once
// Shared by the io/scene tests: a small scene (two axles, the front one steered, a cone and a
// path) and a frozen channel table holding its channels, values set per test.

#include <string>

#include "io/scene/scene.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::scene::testing {

inline Scene two_axle_scene() {
  Scene s;
  s.vehicle = {.wheelbase = 2.0,
               .track = 1.5,
               .body = {.length = 2.8, .width = 1.3, .height = 0.8, .z = 0.1},
               .wheels = {}};
  for (const auto& [name, x, y, steered] :
       {std::tuple{"fl", 1.2, 0.75, true}, std::tuple{"fr", 1.2, -0.75, true},
        std::tuple{"rl", -0.8, 0.75, false}, std::tuple{"rr", -0.8, -0.75, false}}) {
    s.vehicle.wheels.push_back({.name = name,
                                .x = x,
                                .y = y,
                                .z = -0.3,
                                .radius = 0.4,
                                .width = 0.25,
                                .steered = steered});
  }
  s.channels = {.x = "vehicle.body.position.x",
                .y = "vehicle.body.position.y",
                .z = "vehicle.body.position.z",
                .roll = "vehicle.body.roll",
                .pitch = "vehicle.body.pitch",
                .yaw = "vehicle.body.yaw",
                .wheels = {}};
  for (const SceneWheel& w : s.vehicle.wheels) {
    const std::string p = "vehicle.wheel." + w.name + ".";
    s.channels.wheels.push_back({.spin = p + "angle",
                                 .steer = p + "steer_angle",
                                 .travel = p + "suspension_travel",
                                 .fx = p + "longitudinal_force",
                                 .fy = p + "lateral_force",
                                 .fz = p + "normal_force"});
  }
  // a 3 × 2 grid: x 0, 10, 20; y 0, 10; heights z = 0.1·x
  s.terrain.vertices = {0, 0, 0, 10, 0, 1, 20, 0, 2, 0, 10, 0, 10, 10, 1, 20, 10, 2};
  s.terrain.colors.assign(18, 0.5);
  s.terrain.indices = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4};
  s.terrain.surfaces = {{.name = "dry", .color = {0.5, 0.5, 0.5}}};
  s.cones = {{.x = 5, .y = 2, .z = 0.5}, {.x = 5, .y = -2, .z = 0.5}};
  s.path = {{.x = 0, .y = 0, .z = 0}, {.x = 10, .y = 0, .z = 1}, {.x = 10, .y = 10, .z = 1}};
  return s;
}

/// The scene's channels (in its order) and one more; frozen. A frozen table cannot move,
/// hence a type.
struct SceneTable : rt::ChannelTable {
  explicit SceneTable(const Scene& s) {
    add({.name = "rt.loop.tick", .unit = "-"});
    for (const std::string* n : {&s.channels.x, &s.channels.y, &s.channels.z, &s.channels.roll,
                                 &s.channels.pitch, &s.channels.yaw}) {
      add({.name = *n, .unit = "m"});
    }
    for (const SceneWheelChannels& w : s.channels.wheels) {
      for (const std::string* n : {&w.spin, &w.steer, &w.travel, &w.fx, &w.fy, &w.fz}) {
        add({.name = *n, .unit = "-"});
      }
    }
    freeze();
  }
  void put(const std::string& name, double v) { set(resolve(name), v); }
};

}  // namespace hil::io::scene::testing
