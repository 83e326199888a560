#pragma once
// Road inputs from outside the terrain map (RAVON §3.2): a co-simulator may drive a friction
// scale per wheel (env.road.friction.<wheel> [-]) and the road inclination as a normal
// vector (env.road.normal.{x,y,z} [-]). These helpers turn such channel values into what
// the tire and chassis use, robust against garbage on the bus (VehicleModel::prepare applies
// them once per step). Pure functions; RT-safe.

#include <Eigen/Core>

namespace hil::models {

/// Largest external friction scale accepted; larger values are clamped to it.
inline constexpr double kMaxExternalFrictionScale = 10.0;

/// The external scale as used: non-finite → 1 (ignored), < 0 → 0, > max → max.
/// RAVON §3.2 sets μ = 1e-4 for a wheel that lost ground contact: small values pass as is.
[[nodiscard]] double sanitize_friction_scale(double external) noexcept;

/// Unit road normal from input channels: normalized; (0, 0, 1) when the vector is not
/// finite, zero, or does not point up (n_z ≤ 0), so the vehicle never falls through.
[[nodiscard]] Eigen::Vector3d road_normal_from_input(double nx, double ny, double nz) noexcept;

}  // namespace hil::models
