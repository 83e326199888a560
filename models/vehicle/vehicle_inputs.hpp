#pragma once
// What drives the vehicle during one step (zero-order hold across the step). Each field is
// an input channel (models/vehicle/vehicle_channels.hpp). Values are sanitised by the vehicle: a
// non-finite number is replaced by its neutral value and counted, never integrated.

#include <Eigen/Core>
#include <array>
#include <limits>

#include "models/vehicle/capacities.hpp"

namespace hil::models {

struct VehicleInputs {
  /// Central steering angle d per axle [rad] (+ left); the servo follows it.
  std::array<double, kMaxAxles> steering_command{};
  /// DriveKind::torque: the drive torque on each wheel about its axle [N·m] (+ forward).
  std::array<double, kMaxWheels> drive_torque{};
  /// DriveKind::electric: the reference wheel speed the ECU sends [rad/s] (+ forward).
  std::array<double, kMaxWheels> speed_ref{};
  /// DriveKind::electric with an external battery: the DC bus voltage the co-simulated
  /// battery returns [V] (clamped at ≥ 0; a non-finite value holds the last one and is
  /// counted). Its channel starts at the built-in battery's rest voltage; set it here.
  double external_battery_voltage = 0.0;
  /// DriveKind::combustion: accelerator [0, 1], gear levers (a press shifts once: > 0.5 is
  /// pressed), and an absolute gear request (manual: the gear, −1 R … n; automatic: −1 R,
  /// 0 N, 1 D), reached by lever presses; NaN = none.
  double throttle = 0.0;
  double shift_up = 0.0;
  double shift_down = 0.0;
  double gear_request = std::numeric_limits<double>::quiet_NaN();
  double brake = 0.0;       ///< brake command [0, 1] × each axle's max_torque
  double park_brake = 0.0;  ///< parking brake [0, 1] × each axle's park_torque
  /// Per-wheel friction scale (RAVON §3.2; 1e-4 = the wheel has lost the ground) [-].
  std::array<double, kMaxWheels> friction_scale{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  /// Road normal in heading-aligned axes, used when road_normal_from_input (RAVON §3.2).
  Eigen::Vector3d road_normal = Eigen::Vector3d::UnitZ();
  double wind_speed = 0.0;      ///< [m/s]
  double wind_direction = 0.0;  ///< direction the wind blows from, CCW from world +x [rad]
  Eigen::Vector3d external_force = Eigen::Vector3d::Zero();   ///< at the CG, world [N]
  Eigen::Vector3d external_torque = Eigen::Vector3d::Zero();  ///< about the CG, body [N·m]
};

}  // namespace hil::models
