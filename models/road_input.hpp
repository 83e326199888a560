#pragma once
// Road inputs from outside the terrain map (RAVON §3.2): a co-simulator may drive a friction
// scale per wheel (env.road.friction.<wheel> [-]) and the road inclination as a normal
// vector (env.road.normal.{x,y,z} [-]). These helpers turn such channel values into what
// the tire and chassis use, robust against garbage on the bus. RT-safe (noexcept, no
// allocation); WheelFrictionOverride is written by the read phase and read by the update
// phase of the same thread, never shared between threads.
//
// How the vehicle assembly applies them (docs/models.md "Terrain"):
//   1. read phase:   override.set(i, channel value of env.road.friction.<wheel i>)
//   2. update phase: props = override.surface_at(terrain, i, x_contact, y_contact)
//                    → tire model uses props.friction_scale = map scale × channel scale
//   3. inclination:  if the rig takes the road normal from channels, use
//                    road_normal_from_input(nx, ny, nz) instead of terrain.normal(...) and
//                    add inclination_force (models/road_load.hpp) on a flat road, as RAVON.

#include <array>
#include <cstddef>

#include <Eigen/Core>

#include "models/limits.hpp"
#include "models/surface.hpp"
#include "models/terrain.hpp"

namespace hil::models {

/// Largest external friction scale accepted; larger values are clamped to it.
inline constexpr double kMaxExternalFrictionScale = 10.0;

/// The external scale as used: non-finite → 1 (ignored), < 0 → 0, > max → max.
/// RAVON §3.2 sets μ = 1e-4 for a wheel that lost ground contact: small values pass as is.
[[nodiscard]] double sanitize_friction_scale(double external) noexcept;

/// `map` with friction_scale multiplied by the sanitized external scale.
[[nodiscard]] SurfaceProperties apply_friction_scale(SurfaceProperties map,
                                                     double external) noexcept;

class WheelFrictionOverride {
 public:
  /// Stores the channel value for wheel `wheel` (< kMaxWheels; others are ignored).
  void set(std::size_t wheel, double external_scale) noexcept;
  /// The sanitized scale in use for `wheel` (1 when never set or out of range).
  [[nodiscard]] double scale(std::size_t wheel) const noexcept;
  /// The terrain's surface at the contact point with this wheel's scale applied.
  [[nodiscard]] SurfaceProperties surface_at(const Terrain& terrain, std::size_t wheel, double x,
                                             double y) const noexcept;

 private:
  std::array<double, kMaxWheels> scale_{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
};

/// Unit road normal from input channels: normalized; (0, 0, 1) when the vector is not
/// finite, zero, or does not point up (n_z ≤ 0), so the vehicle never falls through.
[[nodiscard]] Eigen::Vector3d road_normal_from_input(double nx, double ny, double nz) noexcept;

}  // namespace hil::models
