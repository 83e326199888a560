#pragma once
// Where a lidar ray meets the world (docs/sensors.md "Lidar"): the terrain (any
// models::Terrain) and the scenario's objects (models/world/world_object.hpp: boxes,
// cylinders, cones). Returns the nearest hit within the range and the cosine of its incidence.
//
// Terrain: a height field z = h(x, y) with |∇h| ≤ s (the slope bound, terrain_slope.hpp). The
// gap g(t) = o_z + t·d_z − h(o_xy + t·d_xy) can close by at most (s·|d_xy| − d_z) per metre
// of ray, so a step of g / (s·|d_xy| − d_z) never passes through the ground (Lipschitz
// marching); a ray rising faster than any slope (s·|d_xy| ≤ d_z) never meets it. Steps are at
// least kMinStep; a step that ends below the ground is refined by bisection to kTolerance,
// far below the 2 mm range unit. Objects: analytic (box: slab test in its frame; vertical
// cylinder and cone: quadratic and caps).
// Pure, allocation-free, thread-safe (const inputs).

#include <span>

#include <Eigen/Core>

#include "models/terrain/terrain.hpp"
#include "models/world/world_object.hpp"

namespace hil::models::lidar {

struct RayHit {
  double range = 0.0;          ///< [m] along the ray; 0: no hit within the range
  double cos_incidence = 0.0;  ///< |n · d| at the hit, 0…1
  [[nodiscard]] bool hit() const noexcept { return range > 0.0; }
};

struct RayWorld {
  const Terrain* terrain = nullptr;  ///< nullptr: no ground
  double slope_bound = 1.0;          ///< s ≥ max |∇h| of the terrain
  std::span<const WorldObject> objects;
  std::span<const ObjectState> states;  ///< objects' order
};

/// Smallest march step and bisection tolerance along the ray [m].
inline constexpr double kMinStep = 0.05;
inline constexpr double kTolerance = 1e-5;

/// Nearest hit of the ray o + t·d (d unit, world frame), 0 < t ≤ range_max.
[[nodiscard]] RayHit cast_ray(const RayWorld& world, const Eigen::Vector3d& o,
                              const Eigen::Vector3d& d, double range_max) noexcept;

/// The terrain alone (range 0: no hit).
[[nodiscard]] RayHit cast_terrain(const Terrain& terrain, double slope_bound,
                                  const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                                  double range_max) noexcept;
/// One object alone, `o` and `d` in the world frame.
[[nodiscard]] RayHit cast_object(const WorldObject& object, const ObjectState& state,
                                 const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                                 double range_max) noexcept;

}  // namespace hil::models::lidar
