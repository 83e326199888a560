#include "models/sensors/imu.hpp"

#include <cmath>

namespace hil::models {

ImuSample Imu::measure(const ImuTruth& t, double dt) noexcept {
  const Eigen::Vector3d& r = params_.position;
  const Eigen::Vector3d& w = t.angular_velocity;
  // Acceleration of a point fixed in the body: a_p = a + α × r + ω × (ω × r)
  const Eigen::Vector3d a_sensor =
      t.acceleration_body + t.angular_acceleration.cross(r) + w.cross(w.cross(r));
  // Bias instability as a random walk: b_k+1 = b_k + σ_w·√dt·N(0, 1)
  const double root_dt = std::sqrt(dt);
  for (int i = 0; i < 3; ++i) {
    accel_walk_[i] += noise_(params_.accel_bias_walk * root_dt);
    gyro_walk_[i] += noise_(params_.gyro_bias_walk * root_dt);
  }
  ImuSample s;
  s.specific_force = a_sensor - t.gravity_body + params_.accel_bias + accel_walk_;
  s.angular_rate = w + params_.gyro_bias + gyro_walk_;
  for (int i = 0; i < 3; ++i) {
    s.specific_force[i] += noise_(params_.accel_noise);
    s.angular_rate[i] += noise_(params_.gyro_noise);
  }
  return s;
}

}  // namespace hil::models
