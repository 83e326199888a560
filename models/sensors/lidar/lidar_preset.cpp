#include "models/sensors/lidar/lidar_preset.hpp"

#include <array>

namespace hil::models::lidar {

namespace {

// VLP-16 user manual §9.3.1.1 (laser ID → vertical angle), in firing order (laser 0…15).
constexpr std::array<double, 16> kVlp16Elevations{-15.0, 1.0, -13.0, 3.0,  -11.0, 5.0,  -9.0, 7.0,
                                                  -7.0,  9.0, -5.0,  11.0, -3.0,  13.0, -1.0, 15.0};

// HDL-64E S2 data sheet: upper block (lasers 0…31) +2° to −8.33° at 1/3°, lower block
// (lasers 32…63) −8.83° to −24.33° at 1/2°.
constexpr std::array<double, 64> make_hdl64() noexcept {
  std::array<double, 64> e{};
  for (int i = 0; i < 32; ++i) e[i] = 2.0 - i / 3.0;
  for (int i = 0; i < 32; ++i) e[32 + i] = -8.83 - i * 0.5;
  return e;
}
constexpr std::array<double, 64> kHdl64Elevations = make_hdl64();

constexpr LidarPreset kVlp16{.name = "VLP16",
                             .elevation_deg = kVlp16Elevations,
                             .range_max_m = 100.0,
                             .firing_cycle_s = 55.296e-6,
                             .laser_interval_s = 2.304e-6,
                             .vlp16_packets = true};
constexpr LidarPreset kHdl64{.name = "HDL64",
                             .elevation_deg = kHdl64Elevations,
                             .range_max_m = 120.0,
                             .firing_cycle_s = 48.0e-6,
                             .laser_interval_s = 0.0,
                             .vlp16_packets = false};

}  // namespace

const LidarPreset& vlp16() noexcept { return kVlp16; }
const LidarPreset& hdl64() noexcept { return kHdl64; }
const LidarPreset& preset(PresetId id) noexcept { return id == PresetId::hdl64 ? kHdl64 : kVlp16; }

}  // namespace hil::models::lidar
