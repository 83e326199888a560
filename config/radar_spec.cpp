#include "config/radar_spec.hpp"

#include "config/range_sensors.pb.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <set>

#include "config/text/suggest.hpp"

namespace hil::config {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kMaxMount = 50.0;  ///< [m] from the CG: a mount further away is a typo

class Checker {
 public:
  Checker(std::string at, const SourceMap& sources, ConfigErrors& errors)
      : at_(std::move(at)), sources_(sources), errors_(errors) {}
  void fail(std::string_view field, std::string message) const {
    errors_.push_back(sources_.error(fmt::format("{}.{}", at_, field), std::move(message)));
  }
  /// An optional field's value, `fallback` when unset; an error when outside [low, high].
  double value(std::string_view field, bool has, double value, double fallback, double low,
               double high, std::string_view unit) const {
    if (!has) return fallback;
    if (!(value >= low && value <= high)) {
      fail(field, fmt::format("{} is out of range; expected {}..{}{}", value, low, high, unit));
    }
    return value;
  }

 private:
  std::string at_;
  const SourceMap& sources_;
  ConfigErrors& errors_;
};

bool snake_case_name(const std::string& name) {
  return !name.empty() && std::islower(static_cast<unsigned char>(name.front())) != 0 &&
         std::ranges::all_of(name, [](char c) {
           return std::islower(static_cast<unsigned char>(c)) != 0 ||
                  std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_';
         });
}

/// The object list's messages and signals in the bus's DBC, not used by its own mapping.
void check_layout(const io::can::CanBusSpec& bus, const Checker& check) {
  const std::array<std::pair<std::string_view, std::vector<std::string_view>>, 2> layout{{
      {kRadarStatusMessage, {kRadarObjectCount, kRadarMeasCounter}},
      {kRadarObjectMessage,
       {kRadarId, kRadarDistLong, kRadarDistLat, kRadarVrelLong, kRadarVrelLat, kRadarDynProp,
        kRadarRcs}},
  }};
  for (const auto& entry : layout) {
    const std::string_view message = entry.first;  // captured below: not a structured binding
    const std::vector<std::string_view>& signals = entry.second;
    const io::can::dbc::Message* m = bus.database.find_message(message);
    if (m == nullptr) {
      check.fail("bus", fmt::format("bus \"{}\": its DBC {} has no message {}; expected the "
                                    "radar object list's (hil_rigs/common/radar_objects.dbc)",
                                    bus.name, bus.database.file_name, message));
      continue;
    }
    for (std::string_view s : signals) {
      if (m->find_signal(s) == nullptr) {
        check.fail("bus", fmt::format("bus \"{}\": message {} of {} has no signal {} (the layout "
                                      "of hil_rigs/common/radar_objects.dbc)",
                                      bus.name, message, bus.database.file_name, s));
      }
    }
    const auto mapped = [&](const auto& list) {
      return std::ranges::any_of(list, [&](const auto& x) { return x.message == message; });
    };
    if (mapped(bus.tx) || mapped(bus.rx)) {
      check.fail("bus", fmt::format("bus \"{}\" maps {} itself (an rx/tx block or a node list); "
                                    "the radar sends it: leave it out of the bus's mapping",
                                    bus.name, message));
    }
  }
}

}  // namespace

ConfigErrors check_radars(const RangeSensors& sensors,
                          const std::vector<io::can::CanBusSpec>& buses, std::string_view prefix,
                          const SourceMap& sources, std::vector<RadarSpec>& out) {
  ConfigErrors errors;
  std::vector<std::string> bus_names;
  bus_names.reserve(buses.size());
  for (const io::can::CanBusSpec& b : buses) bus_names.push_back(b.name);
  std::set<std::string> names;
  std::vector<RadarSpec> radars;
  for (int i = 0; i < sensors.radars_size(); ++i) {
    const Radar& r = sensors.radars(i);
    const Checker check(fmt::format("{}.radars[{}]", prefix, i), sources, errors);
    RadarSpec s;
    s.name = r.name();
    if (!snake_case_name(s.name)) {
      check.fail("name", fmt::format("\"{}\": expected a lower snake case name (its channels are "
                                     "sensor.radar.<name>.*)",
                                     s.name));
    } else if (!names.insert(s.name).second) {
      check.fail("name", fmt::format("radar \"{}\" is defined twice", s.name));
    } else if (std::ranges::any_of(sensors.lidars(),
                                   [&](const Lidar& l) { return l.name() == s.name; })) {
      check.fail("name", fmt::format("\"{}\" is a lidar's name too; expected a name unique among "
                                     "the rig's sensors",
                                     s.name));
    }
    const RangeSensorMount& m = r.mount();
    models::radar::RadarParams& p = s.params;
    p.mount.position = {check.value("mount.x", m.has_x(), m.x(), 0.0, -kMaxMount, kMaxMount, " m"),
                        check.value("mount.y", m.has_y(), m.y(), 0.0, -kMaxMount, kMaxMount, " m"),
                        check.value("mount.z", m.has_z(), m.z(), 0.0, -kMaxMount, kMaxMount, " m")};
    p.mount.roll = check.value("mount.roll", m.has_roll(), m.roll(), 0.0, -std::numbers::pi,
                               std::numbers::pi, " rad");
    p.mount.pitch = check.value("mount.pitch", m.has_pitch(), m.pitch(), 0.0, -std::numbers::pi / 2,
                                std::numbers::pi / 2, " rad");
    p.mount.yaw = check.value("mount.yaw", m.has_yaw(), m.yaw(), 0.0, -std::numbers::pi,
                              std::numbers::pi, " rad");
    p.range_max = check.value("range_max_m", r.has_range_max_m(), r.range_max_m(),
                              kRadarDefaultRange, 1.0, kRadarMaxRange, " m");
    p.fov_azimuth =
        kDegree * check.value("fov_azimuth_deg", r.has_fov_azimuth_deg(), r.fov_azimuth_deg(),
                              kRadarDefaultFov, 1.0, 360.0, " degrees");
    s.cycle_s =
        1e-3 * check.value("cycle_ms", r.has_cycle_ms(), r.cycle_ms(), kRadarDefaultCycle * 1e3,
                           kRadarMinCycle * 1e3, kRadarMaxCycle * 1e3, " ms");
    p.max_objects = static_cast<std::uint32_t>(check.value("max_objects", r.has_max_objects(),
                                                           r.max_objects(), kRadarDefaultObjects, 1,
                                                           kRadarMaxObjects, " objects per cycle"));
    p.distance_noise = check.value("distance_noise_m", r.has_distance_noise_m(),
                                   r.distance_noise_m(), kRadarDefaultNoise, 0.0, 10.0, " m (1σ)");
    p.velocity_noise =
        check.value("velocity_noise_mps", r.has_velocity_noise_mps(), r.velocity_noise_mps(),
                    kRadarDefaultNoise, 0.0, 10.0, " m/s (1σ)");
    if (!r.has_bus()) {
      check.fail("bus", buses.empty()
                            ? "no bus; the rig has no CAN bus: add one (can { buses { name: "
                              "\"radar\" dbc: \"…/common/radar_objects.dbc\" … } }) and name it"
                            : fmt::format("no bus; expected one of the rig's CAN buses ({})",
                                          fmt::join(bus_names, ", ")));
    } else if (auto it = std::ranges::find(bus_names, r.bus()); it == bus_names.end()) {
      const std::optional<std::string> near = closest_name(r.bus(), bus_names);
      check.fail("bus", fmt::format("\"{}\" is not a CAN bus of the rig{}", r.bus(),
                                    near ? fmt::format(" (did you mean {}?)", *near)
                                         : fmt::format("; expected one of: {}",
                                                       fmt::join(bus_names, ", "))));
    } else {
      s.bus = static_cast<std::size_t>(it - bus_names.begin());
      check_layout(buses[s.bus], check);
    }
    radars.push_back(std::move(s));
  }
  if (errors.empty()) out = std::move(radars);
  return errors;
}

std::string describe(const RadarSpec& radar, const io::can::CanBusSpec& bus) {
  const models::radar::RadarParams& p = radar.params;
  const auto id = [&](std::string_view message) {
    const io::can::dbc::Message* m = bus.database.find_message(message);
    return m != nullptr ? fmt::format("0x{:X}", m->id) : std::string("?");
  };
  return fmt::format(
      "{}: {:g}° × {:g} m every {:g} ms, up to {} objects, mount ({:.2f}, {:.2f}, {:.2f}) m, "
      "noise {:g} m / {:g} m/s → CAN bus {} ({} + {} per object)",
      radar.name, p.fov_azimuth / kDegree, p.range_max, radar.cycle_s * 1e3, p.max_objects,
      p.mount.position.x(), p.mount.position.y(), p.mount.position.z(), p.distance_noise,
      p.velocity_noise, bus.name, id(kRadarStatusMessage), id(kRadarObjectMessage));
}

}  // namespace hil::config
