#include "models/sensors/lidar/lidar_scanner.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace hil::models::lidar {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

}  // namespace

LidarScanner::LidarScanner(const LidarParams& params, std::uint64_t seed) noexcept
    : pattern_{.preset = &lidar::preset(params.preset), .rotation_hz = params.rotation_hz},
      range_max_(params.range_max_m > 0.0 ? params.range_max_m
                                          : lidar::preset(params.preset).range_max_m),
      sigma_(params.range_noise_m),
      dropout_(params.dropout),
      noise_(seed),
      dropout_engine_(seed ^ 0xD5A61266F0C9392CULL) {
  const auto& el = preset().elevation_deg;
  for (std::size_t i = 0; i < el.size() && i < sin_el_.size(); ++i) {
    sin_el_[i] = std::sin(el[i] * kDeg);
    cos_el_[i] = std::cos(el[i] * kDeg);
  }
}

void LidarScanner::scan(std::int64_t p, const SensorPose& pose, const RayWorld& world,
                        PacketScan& out) noexcept {
  const LidarPreset& pr = preset();
  const int beams = pr.beams();
  const int firings = pr.firings_per_packet();
  const int firings_per_block = std::max(1, firings / kBlocksPerPacket);
  const int blocks_per_firing = std::max(1, kBlocksPerPacket / firings);
  out.index = p;
  out.start_s = pattern_.packet_start(p);
  out.revolution = {pattern_.revolution(out.start_s),
                    pattern_.revolution(pattern_.fire_time(p, firings - 1, beams - 1))};
  for (int f = 0; f < firings; ++f) {
    // The block(s) this firing fills: VLP-16 two firings a block, HDL-64E two blocks a firing
    const int first_block = f / firings_per_block * blocks_per_firing;
    if (f % firings_per_block == 0) {
      const double a = pattern_.azimuth_deg(pattern_.fire_time(p, f, 0));
      const auto hundredths = static_cast<std::uint16_t>(std::lround(a * 100.0) % 36000);
      for (int b = 0; b < blocks_per_firing; ++b) out.block_azimuth[first_block + b] = hundredths;
    }
    for (int i = 0; i < beams; ++i) {
      const int j = f * beams + i;  // the return's place in the packet
      const double alpha = pattern_.azimuth_deg(pattern_.fire_time(p, f, i));
      const double ca = std::cos(alpha * kDeg);
      const double sa = std::sin(alpha * kDeg);
      const Eigen::Vector3d d_sensor(cos_el_[i] * ca, -cos_el_[i] * sa, sin_el_[i]);
      const Eigen::Vector3d d = pose.rotation * d_sensor;
      const RayHit hit = cast_ray(world, pose.origin, d, range_max_);
      double range = hit.range;
      if (hit.hit()) range += noise_(sigma_);
      // A draw per return whether or not it hit, so the sequence does not depend on the scene
      const double u = static_cast<double>(dropout_engine_() >> 11U) * 0x1.0p-53;
      const bool kept = hit.hit() && u >= dropout_ && range > 0.0 && range <= range_max_;
      out.azimuth_deg[j] = static_cast<float>(alpha);
      out.distance[j] =
          kept ? static_cast<std::uint16_t>(std::min(std::lround(range / kRangeUnit), 65535L))
               : std::uint16_t{0};
      out.reflectivity[j] =
          kept ? static_cast<std::uint8_t>(std::lround(100.0 * hit.cos_incidence)) : 0;
    }
  }
}

}  // namespace hil::models::lidar
