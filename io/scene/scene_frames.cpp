#include "io/scene/scene_frames.hpp"

#include <optional>
#include <stdexcept>

namespace hil::io::scene {

namespace {

std::uint32_t channel(const rt::ChannelTable& table, const std::string& name) {
  const std::optional<rt::ChannelId> id = table.find(name);
  if (!id) throw std::invalid_argument("scene: the run has no channel " + name);
  return id->index;
}

}  // namespace

SceneFrames::SceneFrames(const Scene& scene, const rt::ChannelTable& table)
    : x_(channel(table, scene.channels.x)),
      y_(channel(table, scene.channels.y)),
      z_(channel(table, scene.channels.z)),
      roll_(channel(table, scene.channels.roll)),
      pitch_(channel(table, scene.channels.pitch)),
      yaw_(channel(table, scene.channels.yaw)) {
  if (scene.channels.wheels.size() != scene.vehicle.wheels.size()) {
    throw std::invalid_argument("scene: one set of wheel channels per wheel");
  }
  for (std::size_t w = 0; w < scene.vehicle.wheels.size(); ++w) {
    const SceneWheel& g = scene.vehicle.wheels[w];
    const SceneWheelChannels& c = scene.channels.wheels[w];
    wheels_.push_back({.name = g.name,
                       .hub_frame = "hub_" + g.name,
                       .wheel_frame = "wheel_" + g.name,
                       .centre = {g.x, g.y, g.z},
                       .spin = channel(table, c.spin),
                       .steer = channel(table, c.steer),
                       .travel = channel(table, c.travel),
                       .fx = channel(table, c.fx),
                       .fy = channel(table, c.fy),
                       .fz = channel(table, c.fz)});
  }
  for (const SceneSensor& s : scene.sensors) {
    sensors_.push_back({.frame = s.frame,
                        .translation = {s.x, s.y, s.z},
                        .rotation = attitude(s.roll, s.pitch, s.yaw)});
  }
}

FrameTransformValue SceneFrames::body(std::span<const double> values) const noexcept {
  return {.parent = &world_,
          .child = &body_,
          .translation = {values[x_], values[y_], values[z_]},
          .rotation = attitude(values[roll_], values[pitch_], values[yaw_])};
}

void SceneFrames::frames(std::span<const double> values,
                         std::vector<FrameTransformValue>& out) const {
  out.clear();
  out.push_back(body(values));
  for (const Wheel& w : wheels_) {
    // the hub slides along the body's z axis by the spring compression (models/chassis)
    out.push_back({.parent = &body_,
                   .child = &w.hub_frame,
                   .translation = {w.centre[0], w.centre[1], w.centre[2] + values[w.travel]},
                   .rotation = about_z(values[w.steer])});
    out.push_back({.parent = &w.hub_frame,
                   .child = &w.wheel_frame,
                   .translation = {0.0, 0.0, 0.0},
                   .rotation = about_y(values[w.spin])});
  }
  for (const Sensor& s : sensors_) {
    out.push_back({.parent = &body_,
                   .child = &s.frame,
                   .translation = s.translation,
                   .rotation = s.rotation});
  }
}

TireForce SceneFrames::force(std::span<const double> values, std::size_t wheel) const noexcept {
  const Wheel& w = wheels_[wheel];
  return {.fx = values[w.fx], .fy = values[w.fy], .fz = values[w.fz]};
}

}  // namespace hil::io::scene
