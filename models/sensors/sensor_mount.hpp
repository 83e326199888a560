#pragma once
// Where a sensor sits on the vehicle body (rig file: `range_sensors { ... mount { ... } }`) and
// where that puts it in the world at a tick: one rigid-body composition shared by every sensor
// mounted on the body (lidar, radar). Angles are ISO 8855 z-y-x (yaw, pitch, roll) Tait–Bryan
// angles. Thread-safety: functions of their arguments, callable from any thread; RT-safe.

#include <Eigen/Core>

namespace hil::models {

/// The mount: position from the CG in the body frame [m] and the sensor's own z-y-x angles
/// relative to the body [rad].
struct SensorMount {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  double roll = 0.0;
  double pitch = 0.0;
  double yaw = 0.0;
};

/// Where the sensor is at a tick, world frame: its origin and the rotation sensor → world.
struct SensorPose {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
};

/// R = Rz(yaw)·Ry(pitch)·Rx(roll): ISO 8855 z-y-x attitude, frame → parent.
[[nodiscard]] Eigen::Matrix3d attitude(double roll, double pitch, double yaw) noexcept;

/// The sensor's pose from the body's (CG position and attitude body → world) and the mount:
/// origin = p + R_body·r, rotation = R_body·R_mount.
[[nodiscard]] SensorPose sensor_pose(const Eigen::Vector3d& body_position,
                                     const Eigen::Matrix3d& body_attitude,
                                     const SensorMount& mount) noexcept;

}  // namespace hil::models
