#include "models/steering/steering_servo.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

double steering_servo_rate(const SteeringServoParams& p, double delta, double delta_cmd) noexcept {
  if (!std::isfinite(delta_cmd)) return 0.0;
  // Actuator model (RAVON §3.3 names the controlled central angle d but gives no
  // actuator dynamics): dδ/dt = clamp((clamp(δ_cmd, ±max) − δ)/τ, −rate_max, rate_max)
  const double target = std::clamp(delta_cmd, -p.max_angle, p.max_angle);
  return std::clamp((target - delta) / p.time_constant, -p.max_rate, p.max_rate);
}

}  // namespace hil::models
