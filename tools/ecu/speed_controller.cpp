#include "tools/ecu/speed_controller.hpp"

#include <algorithm>

namespace hil::ecu {

SpeedController::SpeedController(SpeedControlGains gains, double cycle_s) noexcept
    : gains_(gains), cycle_s_(cycle_s) {}

void SpeedController::reset() noexcept {
  integral_ = 0.0;
  accel_ = 0.0;
  started_ = false;
}

double SpeedController::update(double speed_ref, double ref_accel, double measured) noexcept {
  // a: dv/dt through a first-order low-pass (τ_a), discretised exactly for a held input
  if (started_) {
    const double raw = (measured - last_speed_) / cycle_s_;
    accel_ += (raw - accel_) * cycle_s_ / (gains_.accel_filter + cycle_s_);
  }
  started_ = true;
  last_speed_ = measured;
  // Upper controller: a_des = a_ref + k_v·(v_ref − v)
  const double wanted = std::clamp(ref_accel + gains_.speed_gain * (speed_ref - measured),
                                   -gains_.max_decel, gains_.max_accel);
  // Lower controller: u = k_p·(a_des − a) + k_i·∫(a_des − a) dt
  const double error = wanted - accel_;
  const double next = integral_ + gains_.pedal_ki * error * cycle_s_;
  const double unclamped = gains_.pedal_kp * error + next;
  const double u = std::clamp(unclamped, -1.0, 1.0);
  // Anti-windup: the integral does not grow into the pedal's stop it is held at
  if (u == unclamped || (unclamped > u) != (error > 0.0)) integral_ = std::clamp(next, -1.0, 1.0);
  return u;
}

}  // namespace hil::ecu
