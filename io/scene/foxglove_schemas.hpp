#pragma once
// The scene's Foxglove topics (docs/console.md "3D scene and Foxglove 3D") and their schemas:
// each a serialized google.protobuf.FileDescriptorSet (MCAP's and Foxglove WebSocket's
// "protobuf" schema encoding) of the message's .proto file (io/scene/foxglove/) and its
// imports, dependencies first, taken from the generated descriptors.
//
// Thread-safety: everything here is thread-safe (the schemas are built once, on first use).

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace hil::io::scene {

enum class SceneTopic : std::uint8_t { tf, world, vehicle, path, forces, trail, objects };

struct SceneTopicInfo {
  SceneTopic id;
  std::string_view topic;        ///< "/tf"
  std::string_view schema_name;  ///< "foxglove.FrameTransform"
  bool per_sample;  ///< written every scene sample (else once: at the start, to a new subscriber)
};

inline constexpr std::array<SceneTopicInfo, 7> kSceneTopics{{
    {SceneTopic::tf, "/tf", "foxglove.FrameTransform", true},
    {SceneTopic::world, "/scene/world", "foxglove.SceneUpdate", false},
    {SceneTopic::vehicle, "/scene/vehicle", "foxglove.SceneUpdate", false},
    {SceneTopic::path, "/scene/path", "foxglove.PosesInFrame", false},
    {SceneTopic::forces, "/scene/forces", "foxglove.SceneUpdate", true},
    {SceneTopic::trail, "/scene/trail", "foxglove.PosesInFrame", true},
    {SceneTopic::objects, "/scene/objects", "foxglove.SceneUpdate", true},
}};

[[nodiscard]] constexpr const SceneTopicInfo& topic_info(SceneTopic t) noexcept {
  return kSceneTopics[static_cast<std::size_t>(t)];
}

/// The FileDescriptorSet of the topic's message type.
[[nodiscard]] std::span<const std::uint8_t> scene_schema(SceneTopic topic);

/// The FileDescriptorSet of a message of the generated pool named `full_name`
/// ("foxglove.SceneUpdate"). Throws std::invalid_argument for a name it does not know.
[[nodiscard]] std::vector<std::uint8_t> file_descriptor_set(std::string_view full_name);

}  // namespace hil::io::scene
