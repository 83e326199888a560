#pragma once
// Road loads on the vehicle body (docs/models.md "Aero and wind"): the grade force of an
// inclined road, and RAVON's inclination force for a vehicle simulated on a flat road.
// (Rolling resistance acts per tire: TireParams::rolling_resistance.) SI units, ISO 8855
// (x forward, z up). Pure functions; RT-safe.

#include <Eigen/Core>

namespace hil::models {

inline constexpr double kStandardGravity = 9.80665;  ///< g_n [m/s²]

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
