#pragma once
// Road loads on the vehicle body (docs/models.md "Aero and wind"): rolling resistance, the
// grade force of an inclined road, and RAVON's inclination force for a vehicle simulated on
// a flat road. SI units, ISO 8855 (x forward, z up). Pure functions; RT-safe.

#include <Eigen/Core>

namespace hil::models {

inline constexpr double kStandardGravity = 9.80665;  ///< g_n [m/s²]

struct RollingResistanceParams {
  double c_rr = 0.015;  ///< rolling resistance coefficient C_rr [-]
  /// Below this speed the force fades linearly to 0 (no chatter at standstill) [m/s].
  double v_eps = 0.05;
};

/// F_rr = −C_rr·N·sat(v/v_eps) [N], N the normal load (m·g·cos θ on a grade θ), v the speed
/// along x. Exact C_rr·N opposing motion for |v| ≥ v_eps.
[[nodiscard]] double rolling_resistance_force(const RollingResistanceParams& p, double normal_load,
                                              double v) noexcept;

/// Normal load of mass m on a grade θ (rising ahead: θ > 0): N = m·g·cos θ [N].
[[nodiscard]] double normal_load_on_grade(double m, double g, double theta) noexcept;

/// Longitudinal component of gravity on a grade θ: F_grade = −m·g·sin θ [N].
[[nodiscard]] double grade_force(double m, double g, double theta) noexcept;

/// RAVON §3.2 eq. (1): G' = m·g·(N_x, N_y, 1 − N_z), the force to add to the ordinary gravity
/// (0, 0, −m·g) of a vehicle driven on a flat road so that it feels the inclined road whose
/// unit normal is N (heading-aligned horizontal axes; N_x < 0 when the road rises ahead).
[[nodiscard]] Eigen::Vector3d inclination_force(double m, double g,
                                                const Eigen::Vector3d& road_normal) noexcept;

}  // namespace hil::models
