#pragma once
// The scene as Foxglove messages (io/scene/foxglove_schemas.hpp for the topics), protobuf-
// encoded, for telemetry.mcap (io/scene/scene_recorder_topics.hpp) and the console's Foxglove
// endpoint alike:
//   /scene/world    SceneUpdate: the terrain (a TriangleListPrimitive, a colour per vertex),
//                   the cones (CylinderPrimitives narrowing to a point), the planned path
//                   (a LinePrimitive), in frame "world"
//   /scene/vehicle  SceneUpdate: the body (a CubePrimitive in "body") and each wheel (a
//                   CylinderPrimitive and a spoke, in "wheel_<w>"), frame-locked
//   /scene/path     PosesInFrame: the planned path
//   /tf             FrameTransform: one message per frame (io/scene/scene_frames.hpp)
//   /scene/forces   SceneUpdate: per wheel an ArrowPrimitive in "hub_<w>" from the contact
//                   patch along the tire's horizontal force (fx, fy), 1 m per 2 kN
//   /scene/trail    PosesInFrame: the driven trail (io/scene/scene_trail.hpp)
//   /scene/objects  SceneUpdate: the scenario's moving objects at the tick, one entity each
//                   ("object_<name>", in "world"; the static ones are in /scene/world)
// Every entity has lifetime 0 (until replaced: the per-sample ones keep their ids). Stamps are
// ns since the UNIX epoch (the run's start + tick·period).
//
// Thread-safety: one thread per object (scratch buffers); the scene and table outlive it.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "io/scene/foxglove_schemas.hpp"
#include "io/scene/scene.hpp"
#include "io/scene/scene_frames.hpp"
#include "io/scene/scene_trail.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::scene {

/// Receives one encoded message (valid during the call).
using MessageOut = std::function<void(std::span<const std::uint8_t>)>;

class SceneMessages {
 public:
  /// Setup: throws std::invalid_argument naming a channel of the scene that `table` lacks.
  SceneMessages(const Scene& scene, const rt::ChannelTable& table);

  /// The message of a static topic (world, vehicle, path). Throws std::invalid_argument for
  /// a per-sample topic.
  [[nodiscard]] std::vector<std::uint8_t> static_message(SceneTopic topic,
                                                         std::uint64_t stamp_ns) const;
  /// /tf at the tick whose values (the whole table, by channel index) are `values`: one
  /// message per frame.
  void transforms(std::span<const double> values, std::uint64_t stamp_ns, const MessageOut& out);
  /// /scene/forces at that tick.
  void forces(std::span<const double> values, std::uint64_t stamp_ns, const MessageOut& out);
  /// /scene/objects at that tick; nothing when the scene has no moving object.
  void objects(std::span<const double> values, std::uint64_t stamp_ns, const MessageOut& out);
  /// /scene/trail: what `trail` holds.
  void trail(const SceneTrail& trail, std::uint64_t stamp_ns, const MessageOut& out);

  [[nodiscard]] const SceneFrames& frames() const noexcept { return frames_; }

 private:
  const Scene& scene_;
  SceneFrames frames_;
  std::vector<FrameTransformValue> transforms_;
  struct MovingObject {
    const SceneObject* object = nullptr;
    std::uint32_t x = 0, y = 0, z = 0, yaw = 0;  // channel indices
  };
  std::vector<MovingObject> moving_;
  std::vector<ScenePoint> points_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace hil::io::scene
