#pragma once
// Inertial measurement unit: specific force and angular rate in the
// sensor's axes, with constant bias, bias random walk and white noise from a seeded
// generator (noise off by default). The vehicle hands it the true kinematics of the body;
// one measure() per tick. Used by the RT thread only.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>

#include "models/sensors/sensor_noise.hpp"

namespace hil::models {

struct ImuParams {
  /// Sensor position relative to the sprung CG, body axes [m]; axes aligned with the body.
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d accel_bias = Eigen::Vector3d::Zero();  ///< constant bias [m/s²]
  Eigen::Vector3d gyro_bias = Eigen::Vector3d::Zero();   ///< constant bias [rad/s]
  double accel_noise = 0.0;                              ///< white noise σ per sample [m/s²]
  double gyro_noise = 0.0;                               ///< white noise σ per sample [rad/s]
  double accel_bias_walk = 0.0;                          ///< bias random walk σ [m/s²/√s]
  double gyro_bias_walk = 0.0;                           ///< bias random walk σ [rad/s/√s]
};

struct ImuSample {
  Eigen::Vector3d specific_force = Eigen::Vector3d::Zero();  ///< f = a − g, sensor axes [m/s²]
  Eigen::Vector3d angular_rate = Eigen::Vector3d::Zero();    ///< ω, sensor axes [rad/s]
};

/// True body kinematics at the end of a step, what the IMU senses.
struct ImuTruth {
  Eigen::Vector3d acceleration_body = Eigen::Vector3d::Zero();     ///< CG acceleration [m/s²]
  Eigen::Vector3d gravity_body = Eigen::Vector3d::Zero();          ///< g in body axes [m/s²]
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();      ///< body axes [rad/s]
  Eigen::Vector3d angular_acceleration = Eigen::Vector3d::Zero();  ///< body axes [rad/s²]
};

class Imu {
 public:
  Imu(const ImuParams& params, std::uint64_t seed) noexcept : params_(params), noise_(seed) {}

  /// One sample over a step of dt [s]: rigid-body transport of the CG acceleration to the
  /// sensor, a_s = a + α × r + ω × (ω × r), then f = a_s − g, plus bias and noise.
  [[nodiscard]] ImuSample measure(const ImuTruth& truth, double dt) noexcept;

 private:
  ImuParams params_;
  GaussianNoise noise_;
  Eigen::Vector3d accel_walk_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d gyro_walk_ = Eigen::Vector3d::Zero();
};

}  // namespace hil::models
