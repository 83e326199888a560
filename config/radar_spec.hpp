#pragma once
// The rig's radars (the `radars` of the `range_sensors` block, config/range_sensors.proto;
// docs/sensors.md "Radar") checked and converted: defaults filled in, every value in its range,
// the CAN bus each sends on one of the rig's, whose DBC holds the object list's messages and
// signals (the layout of hil_rigs/common/radar_objects.dbc) and whose mapping does not send or
// receive them itself. Errors are located in the rig file ("rig.pbtxt:12:9:
// range_sensors.radars[0].bus: \"radr\" is not a CAN bus of the rig (did you mean radar?)").
// Setup phase. Thread-safety: a function of its arguments.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "models/sensors/radar/radar_object_list.hpp"

namespace hil::config {

class RangeSensors;  // config/range_sensors.proto

/// The object list's messages and signals, as hil_rigs/common/radar_objects.dbc names them.
inline constexpr std::string_view kRadarStatusMessage = "Radar_ObjectListStatus";
inline constexpr std::string_view kRadarObjectMessage = "Radar_ObjectGeneral";
inline constexpr std::string_view kRadarObjectCount = "Obj_NofObjects";
inline constexpr std::string_view kRadarMeasCounter = "Obj_MeasCounter";
inline constexpr std::string_view kRadarInterfaceVersion = "Obj_InterfaceVersion";  ///< optional
inline constexpr std::string_view kRadarId = "Obj_ID";
inline constexpr std::string_view kRadarDistLong = "Obj_DistLong";
inline constexpr std::string_view kRadarDistLat = "Obj_DistLat";
inline constexpr std::string_view kRadarVrelLong = "Obj_VrelLong";
inline constexpr std::string_view kRadarVrelLat = "Obj_VrelLat";
inline constexpr std::string_view kRadarDynProp = "Obj_DynProp";
inline constexpr std::string_view kRadarRcs = "Obj_RCS";

// Defaults and limits (config/range_sensors.proto)
inline constexpr double kRadarDefaultRange = 200.0;  ///< [m]
inline constexpr double kRadarMaxRange = 1000.0;     ///< [m] (Obj_DistLong reaches 1138 m)
inline constexpr double kRadarDefaultFov = 90.0;     ///< [deg]
inline constexpr double kRadarDefaultCycle = 0.070;  ///< [s] (the ARS 408's cycle)
inline constexpr double kRadarMinCycle = 0.010, kRadarMaxCycle = 1.0;  ///< [s]
inline constexpr std::uint32_t kRadarDefaultObjects = 32, kRadarMaxObjects = 100;
inline constexpr double kRadarDefaultNoise = 0.1;  ///< σ [m] and [m/s]

struct RadarSpec {
  std::string name;     ///< channels sensor.radar.<name>.*
  std::size_t bus = 0;  ///< index into RigSpec::can
  double cycle_s = kRadarDefaultCycle;
  models::radar::RadarParams params;
};

/// Checks the radars of `sensors` (at `prefix`, e.g. "range_sensors") against the rig's
/// `buses`; fills `out` (one per radar, the file's order) when there is no error.
[[nodiscard]] ConfigErrors check_radars(const RangeSensors& sensors,
                                        const std::vector<io::can::CanBusSpec>& buses,
                                        std::string_view prefix, const SourceMap& sources,
                                        std::vector<RadarSpec>& out);

/// "front: 90° × 200 m every 70 ms, up to 32 objects, mount (1.80, 0.00, 0.30) m, noise 0.10 m
/// / 0.10 m/s → CAN bus radar (0x60A + 0x60B per object)" (hilsim check); `bus` is its bus.
[[nodiscard]] std::string describe(const RadarSpec& radar, const io::can::CanBusSpec& bus);

}  // namespace hil::config
