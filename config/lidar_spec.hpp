#pragma once
// The rig's lidars (`range_sensors { lidars { ... } }`, config/range_sensors.proto,
// docs/sensors.md "Lidar") checked and filled with their defaults: every problem located at
// file:line:column (e.g. "rig.pbtxt:12:30: range_sensors.lidars[0].rotation_hz: 40 is out of
// range; expected 5..20"). Setup phase. Thread-safety: functions of their arguments.

#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "models/sensors/lidar/lidar_scanner.hpp"

namespace hil::config {

class RangeSensors;  // config/range_sensors.proto

struct LidarSpec {
  std::string name;                   ///< channels sensor.lidar.<name>.*, topic /lidar/<name>
  models::lidar::LidarParams params;  ///< range_max_m filled in (the preset's by default)
  models::SensorMount mount;          ///< on the body
  std::string uri = "none";           ///< "udp://HOST:PORT" or "none"
  bool record_points = true;          ///< foxglove.PointCloud on /lidar/<name> in telemetry.mcap
};

/// Every lidar of the block, checked (`prefix`: "range_sensors"); `out` filled when there is
/// no error. A lidar needs the rig's vehicle (it is mounted on its body).
[[nodiscard]] ConfigErrors check_lidars(const RangeSensors& sensors, bool has_vehicle,
                                        std::string_view prefix, const SourceMap& sources,
                                        std::vector<LidarSpec>& out);

/// "roof: VLP16 at 10 Hz (16 beams, 0.199° steps, 753.5 packets/s, 100 m), mount (0.20, 0.00,
/// 1.10) m, noise 0.010 m, dropout 0, → udp://127.0.0.1:2368, points recorded" (hilsim check).
[[nodiscard]] std::string describe(const LidarSpec& lidar);

}  // namespace hil::config
