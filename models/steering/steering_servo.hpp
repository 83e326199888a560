#pragma once
// Steering actuator: rate-limited first-order servo with angle feedback (docs/models.md
// "Steering"; RAVON §3.3 gives only the geometry, not the actuator). The state δ (central
// angle d of one axle) is integrated by the caller's RK4 (rt_core/rk4.hpp) with the
// derivative below. Pure functions; RT-safe.

namespace hil::models {

struct SteeringServoParams {
  double time_constant = 0.05;  ///< τ [s], > 0
  double max_rate = 1.0;        ///< |dδ/dt| limit [rad/s], > 0
  double max_angle = 0.5;       ///< |δ_cmd| limit [rad]; δ never leaves [−max, max]
};

/// dδ/dt = clamp((clamp(δ_cmd, ±max_angle) − δ)/τ, ±max_rate). A non-finite command holds
/// the current angle (derivative 0) so that a corrupt input channel cannot poison the state.
[[nodiscard]] double steering_servo_rate(const SteeringServoParams& p, double delta,
                                         double delta_cmd) noexcept;

}  // namespace hil::models
