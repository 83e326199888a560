#pragma once
// The vehicle's continuous state: one fixed-size vector that rt::rk4_step integrates in one
// piece (chassis, wheel spins and angles, tire patches, brakes, steering servos, the drive's
// states), so every coupling is evaluated at every RK4 stage. Unused slots stay zero.

#include <Eigen/Core>

#include <algorithm>

#include "models/chassis/chassis.hpp"
#include "models/drive/electric_drive.hpp"
#include "models/drive/powertrain.hpp"
#include "models/vehicle/capacities.hpp"

namespace hil::models {

struct VehicleLayout {
  static constexpr int kWheels = static_cast<int>(kMaxWheels);
  static constexpr int kChassis = 0;                  ///< ChassisLayout
  static constexpr int kSpin = ChassisLayout::kSize;  ///< ω per wheel [rad/s]
  static constexpr int kAngle = kSpin + kWheels;      ///< θ per wheel [rad]
  static constexpr int kPatchX = kAngle + kWheels;    ///< u_x per wheel [m]
  static constexpr int kPatchY = kPatchX + kWheels;   ///< u_y per wheel [m]
  static constexpr int kBrake = kPatchY + kWheels;    ///< φ per wheel [rad]
  static constexpr int kSteer = kBrake + kWheels;     ///< servo angle per axle [rad]
  /// The drive's own states: ElectricDriveLayout or PowertrainLayout, whichever the rig has.
  static constexpr int kDrive = kSteer + static_cast<int>(kMaxAxles);
  static constexpr int kDriveSize = std::max(ElectricDriveLayout::kSize, PowertrainLayout::kSize);
  static constexpr int kSize = kDrive + kDriveSize;

  [[nodiscard]] static constexpr int spin(std::size_t i) { return kSpin + static_cast<int>(i); }
  [[nodiscard]] static constexpr int angle(std::size_t i) { return kAngle + static_cast<int>(i); }
  [[nodiscard]] static constexpr int patch_x(std::size_t i) {
    return kPatchX + static_cast<int>(i);
  }
  [[nodiscard]] static constexpr int patch_y(std::size_t i) {
    return kPatchY + static_cast<int>(i);
  }
  [[nodiscard]] static constexpr int brake(std::size_t i) { return kBrake + static_cast<int>(i); }
  [[nodiscard]] static constexpr int steer(std::size_t axle) {
    return kSteer + static_cast<int>(axle);
  }
};

using VehicleState = Eigen::Matrix<double, VehicleLayout::kSize, 1>;

}  // namespace hil::models
