#pragma once
// What an automotive radar reports each cycle (docs/sensors.md "Radar"): the list of the
// world's objects inside its field of view and range, nearest first, up to max_objects, each
// with an id kept while it stays listed (radar_track_ids.hpp), its distance and relative
// velocity in the sensor's frame, its radar cross-section and its dynamic property — the
// figures of an object-list radar such as Continental's ARS 408 (hil_rigs/common/
// radar_objects.dbc).
//
// Model (one decision per line; docs/sensors.md says the same):
//  - the sensor's frame: x along the boresight, y left, z up; its pose is the body's (CG
//    position, ISO 8855 z-y-x angles) composed with the mount's (position in the body frame,
//    its own z-y-x angles);
//  - an object is measured at the point of its footprint nearest to the sensor in the ground
//    plane (a box's rectangle turned by its yaw, a cylinder's or cone's base circle), at the
//    sensor's height clamped to the object's height: where a radar's strongest return of a
//    close solid comes from;
//  - it is listed when that point lies within range_max and within ±fov/2 of the boresight in
//    azimuth (the horizontal angle in the sensor's frame); no elevation limit, no occlusion;
//  - relative velocity = the object's velocity over ground minus the sensor's (the CG's plus
//    ω × r of the mount), in the sensor's axes: a target approaching at v along the boresight
//    gives vrel_long = −v whether the target or the vehicle moves;
//  - dynamic property from the object's velocity over ground v_o (moving: |v_o| > 0.5 m/s):
//    crossing_moving when its component across the boresight exceeds the one along it,
//    oncoming when it comes towards the sensor, else moving; a still object that was seen
//    moving is stopped, else stationary (the ARS 408's value table);
//  - measurement noise: Gaussian, σ_d on each distance and σ_v on each velocity component,
//    drawn per listed object in list order from the radar's own generator (sensor_noise.hpp);
//    the RCS is the object's, unperturbed.
// Thread-safety: one thread at a time (the RT thread); measure() allocates nothing.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "models/sensors/radar/radar_track_ids.hpp"
#include "models/sensors/sensor_mount.hpp"
#include "models/sensors/sensor_noise.hpp"
#include "models/world/world_object.hpp"

namespace hil::models::radar {

/// The ARS 408's Obj_DynProp values (hil_rigs/common/radar_objects.dbc VAL_).
enum class DynamicProperty : std::uint8_t {
  moving = 0,
  stationary = 1,
  oncoming = 2,
  stationary_candidate = 3,
  unknown = 4,
  crossing_stationary = 5,
  crossing_moving = 6,
  stopped = 7,
};

/// Over-ground speed above which an object counts as moving [m/s].
inline constexpr double kMovingSpeed = 0.5;

struct RadarParams {
  SensorMount mount;                        ///< on the body
  double range_max = 200.0;                 ///< [m]
  double fov_azimuth = 1.5707963267948966;  ///< full horizontal field of view [rad]
  std::uint32_t max_objects = 32;
  double distance_noise = 0.1;  ///< σ_d [m]
  double velocity_noise = 0.1;  ///< σ_v [m/s]
};

/// The vehicle carrying the radar at the cycle's tick, world frame.
struct CarrierState {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();          ///< CG [m]
  double roll = 0.0, pitch = 0.0, yaw = 0.0;                   ///< ISO 8855 z-y-x [rad]
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();          ///< CG, world [m/s]
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< body axes [rad/s]
};

/// One object of the list, sensor frame.
struct RadarObject {
  std::uint8_t id = 0;
  std::uint32_t target = 0;  ///< the world object's index (ground truth; not sent)
  double range = 0.0;        ///< true distance to its nearest point [m] (the list's order)
  double dist_long = 0.0, dist_lat = 0.0;  ///< [m], noise included
  double vrel_long = 0.0, vrel_lat = 0.0;  ///< [m/s], noise included
  double rcs_dbsm = 0.0;
  DynamicProperty dynamic = DynamicProperty::unknown;
};

class RadarObjectList {
 public:
  /// Setup: sized for `object_count` world objects; noise from `seed`.
  RadarObjectList(RadarParams params, std::size_t object_count, std::uint64_t seed);

  /// One cycle: the list as seen from `carrier` (objects and states in the same order, at most
  /// object_count). Nearest first, at most max_objects. No allocation.
  [[nodiscard]] std::span<const RadarObject> measure(const CarrierState& carrier,
                                                     std::span<const WorldObject> objects,
                                                     std::span<const ObjectState> states) noexcept;

  [[nodiscard]] const RadarParams& params() const noexcept { return params_; }

 private:
  RadarParams params_;
  GaussianNoise noise_;
  TrackIds ids_;
  std::vector<RadarObject> candidates_;    ///< every object in view, then sorted
  std::vector<std::uint8_t> seen_moving_;  ///< per object: listed while moving, since listed
  std::size_t listed_ = 0;
};

}  // namespace hil::models::radar
