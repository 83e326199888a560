#pragma once
// What drives the vehicle during one step (zero-order hold across the step). Each field is
// an input channel (models/vehicle_channels.hpp). Values are sanitised by the vehicle: a
// non-finite number is replaced by its neutral value and counted, never integrated.

#include <Eigen/Core>
#include <array>

#include "models/limits.hpp"

namespace hil::models {

struct VehicleInputs {
  /// Central steering angle d per axle [rad] (+ left); the servo follows it.
  std::array<double, kMaxAxles> steering_command{};
  /// Drive torque on each wheel about its axle [N·m] (+ forward). The drive issue adds
  /// motors that produce it; until then it is an input.
  std::array<double, kMaxWheels> drive_torque{};
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
