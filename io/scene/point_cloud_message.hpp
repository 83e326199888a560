#pragma once
// A lidar revolution as foxglove.PointCloud (io/scene/foxglove/PointCloud.proto; docs/sensors.md
// "Lidar"): points of 16 bytes — x, y, z [m] and intensity as little-endian float32 — in the
// lidar's frame (`frame_id`, e.g. "lidar_roof"; x forward, y left, z up), identity pose.
// Not for the RT thread (allocates). Thread-safe.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace hil::io::scene {

inline constexpr std::string_view kPointCloudSchema = "foxglove.PointCloud";

/// The serialized message of `points` × (x, y, z, intensity) at `time_ns` [ns since the epoch].
[[nodiscard]] std::vector<std::uint8_t> point_cloud_message(std::uint64_t time_ns,
                                                            std::string_view frame_id,
                                                            std::span<const float> xyzi);

/// The FileDescriptorSet of foxglove.PointCloud.
[[nodiscard]] std::span<const std::uint8_t> point_cloud_schema();

}  // namespace hil::io::scene
