#include "config/lidar_spec.hpp"

#include "config/range_sensors.pb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "io/lidar/lidar_sender.hpp"

namespace hil::config {

namespace {

namespace lidar = models::lidar;

constexpr double kMinRotationHz = 5.0;  // VLP-16 user manual: 300…1200 rpm
constexpr double kMaxRotationHz = 20.0;
constexpr double kMaxNoise = 1.0;                             // [m]
constexpr double kMaxMountOffset = 10.0;                      // [m] from the CG
constexpr double kMaxRangeUnits = 65535 * lidar::kRangeUnit;  // what 16 bits of 2 mm hold

bool is_channel_word(const std::string& name) {
  return !name.empty() && name.size() <= 32 && std::ranges::all_of(name, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

ConfigErrors check_lidars(const RangeSensors& sensors, bool has_vehicle, std::string_view prefix,
                          const SourceMap& sources, std::vector<LidarSpec>& out) {
  ConfigErrors errors;
  std::set<std::string> names;
  std::vector<LidarSpec> lidars;
  for (int i = 0; i < sensors.lidars_size(); ++i) {
    const Lidar& l = sensors.lidars(i);
    const std::string at = fmt::format("{}.lidars[{}]", prefix, i);
    const auto fail = [&](const std::string& field, std::string message) {
      errors.push_back(sources.error(fmt::format("{}.{}", at, field), std::move(message)));
    };
    const auto range = [&](const char* field, bool has, double value, double low, double high) {
      if (has && !(value >= low && value <= high)) {
        fail(field, fmt::format("{} is out of range; expected {}..{}", value, low, high));
      }
    };
    if (!has_vehicle) {
      errors.push_back(sources.error(at, "a lidar is mounted on the vehicle; the rig has none"));
    }
    LidarSpec s;
    s.name = l.name();
    if (!is_channel_word(s.name)) {
      fail("name", fmt::format("\"{}\" is not a channel name word; expected lower case letters, "
                               "digits and _ (e.g. \"roof\")",
                               s.name));
    } else if (!names.insert(s.name).second) {
      fail("name", fmt::format("\"{}\" is the name of another lidar", s.name));
    }
    s.params.preset = l.preset() == Lidar::HDL64 ? lidar::PresetId::hdl64 : lidar::PresetId::vlp16;
    const lidar::LidarPreset& preset = lidar::preset(s.params.preset);
    range("rotation_hz", l.has_rotation_hz(), l.rotation_hz(), kMinRotationHz, kMaxRotationHz);
    s.params.rotation_hz = l.has_rotation_hz() ? l.rotation_hz() : 10.0;
    range("range_noise_m", l.has_range_noise_m(), l.range_noise_m(), 0.0, kMaxNoise);
    s.params.range_noise_m = l.has_range_noise_m() ? l.range_noise_m() : 0.01;
    range("dropout", l.has_dropout(), l.dropout(), 0.0, 1.0);
    s.params.dropout = l.dropout();
    range("range_max_m", l.has_range_max_m(), l.range_max_m(), 1.0, kMaxRangeUnits);
    s.params.range_max_m = l.has_range_max_m() ? l.range_max_m() : preset.range_max_m;
    const RangeSensorMount& m = l.mount();
    range("mount.x", m.has_x(), m.x(), -kMaxMountOffset, kMaxMountOffset);
    range("mount.y", m.has_y(), m.y(), -kMaxMountOffset, kMaxMountOffset);
    range("mount.z", m.has_z(), m.z(), -kMaxMountOffset, kMaxMountOffset);
    for (const auto& [field, has, v] : {std::tuple{"mount.roll", m.has_roll(), m.roll()},
                                        std::tuple{"mount.pitch", m.has_pitch(), m.pitch()},
                                        std::tuple{"mount.yaw", m.has_yaw(), m.yaw()}}) {
      range(field, has, v, -std::numbers::pi, std::numbers::pi);
    }
    s.mount = {
        .position = {m.x(), m.y(), m.z()}, .roll = m.roll(), .pitch = m.pitch(), .yaw = m.yaw()};
    s.uri = l.has_uri() ? l.uri() : "none";
    std::string why;
    if (const auto target = io::lidar::parse_lidar_uri(s.uri, why); !target) {
      fail("uri", why);
    } else if (!target->host.empty() && !preset.vlp16_packets) {
      fail("uri", fmt::format("the UDP output is the VLP-16 packet format; a {} is recorded only "
                              "(uri: \"none\")",
                              preset.name));
    }
    s.record_points = !l.has_record_points() || l.record_points();
    lidars.push_back(std::move(s));
  }
  if (errors.empty()) out = std::move(lidars);
  return errors;
}

std::string describe(const LidarSpec& l) {
  const lidar::LidarPreset& p = lidar::preset(l.params.preset);
  const lidar::ScanPattern pattern{.preset = &p, .rotation_hz = l.params.rotation_hz};
  return fmt::format(
      "{}: {} at {:g} Hz ({} beams, {:.3f}° steps, {:.1f} packets/s, {:g} m), mount ({:.2f}, "
      "{:.2f}, {:.2f}) m, noise {:.3f} m, dropout {:g}, → {}{}",
      l.name, p.name, l.params.rotation_hz, p.beams(), pattern.azimuth_step_deg(),
      1.0 / p.packet_period_s(), l.params.range_max_m, l.mount.position.x(), l.mount.position.y(),
      l.mount.position.z(), l.params.range_noise_m, l.params.dropout, l.uri,
      l.record_points ? ", points recorded" : "");
}

}  // namespace hil::config
