#pragma once
// The scene's frames at one tick, from that tick's channel values (io/scene/scene.hpp for the
// frames and their channels): world → body, then per wheel body → hub_<w> → wheel_<w>, then the
// sensors' fixed frames body → lidar_<name>; and each tire's force. What /tf, /scene/forces and the
// page's 3D view show.
//
// Thread-safety: immutable after construction; the const methods may run on any thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/scene/scene.hpp"
#include "io/scene/scene_pose.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::scene {

/// One edge of the frame tree: where `child`'s origin is in `parent` and how it is turned.
struct FrameTransformValue {
  const std::string* parent = nullptr;
  const std::string* child = nullptr;
  Vec3 translation{};
  Quaternion rotation;
};

/// The tire's force on the ground's plane of the wheel [N]: along its heading (fx), its axis
/// (fy, + left), and normal to the ground (fz).
struct TireForce {
  double fx = 0.0, fy = 0.0, fz = 0.0;
};

class SceneFrames {
 public:
  /// Setup: resolves the scene's channels in `table`. Throws std::invalid_argument naming a
  /// channel the table lacks.
  SceneFrames(const Scene& scene, const rt::ChannelTable& table);

  /// 1 + 2 per wheel + 1 per sensor.
  [[nodiscard]] std::size_t frame_count() const noexcept {
    return 1 + 2 * wheels_.size() + sensors_.size();
  }
  [[nodiscard]] std::size_t wheel_count() const noexcept { return wheels_.size(); }
  /// "hub_fl", "wheel_fl", …
  [[nodiscard]] const std::string& hub_frame(std::size_t wheel) const noexcept {
    return wheels_[wheel].hub_frame;
  }
  [[nodiscard]] const std::string& wheel_frame(std::size_t wheel) const noexcept {
    return wheels_[wheel].wheel_frame;
  }
  [[nodiscard]] const std::string& wheel_name(std::size_t wheel) const noexcept {
    return wheels_[wheel].name;
  }

  /// Every frame at the tick of `values` (the whole table, by channel index) into `out`
  /// (frame_count() entries, cleared first): world → body, then per wheel body → hub, hub →
  /// wheel, then per sensor body → sensor.
  void frames(std::span<const double> values, std::vector<FrameTransformValue>& out) const;
  /// world → body alone.
  [[nodiscard]] FrameTransformValue body(std::span<const double> values) const noexcept;
  /// The tire force of `wheel`.
  [[nodiscard]] TireForce force(std::span<const double> values, std::size_t wheel) const noexcept;

 private:
  struct Wheel {
    std::string name, hub_frame, wheel_frame;
    Vec3 centre{};  // at zero travel, body frame
    std::uint32_t spin = 0, steer = 0, travel = 0, fx = 0, fy = 0, fz = 0;
  };
  std::string world_ = "world", body_ = "body";  // the frames' names FrameTransformValue points to
  std::uint32_t x_ = 0, y_ = 0, z_ = 0, roll_ = 0, pitch_ = 0, yaw_ = 0;
  std::vector<Wheel> wheels_;
  struct Sensor {
    std::string frame;
    Vec3 translation{};
    Quaternion rotation;
  };
  std::vector<Sensor> sensors_;
};

}  // namespace hil::io::scene
