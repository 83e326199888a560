#pragma once
// 3-vectors of two lanes (lane 0 one wheel, lane 1 the other; models/math/lanes.hpp) with
// Eigen's order of operations for 3-vectors without vectorisation (a dot product sums
// x + (y + z); the cross product as Eigen writes it): each lane gets the bits the Eigen
// expression gives for its wheel alone. Pure: any thread.

#include <Eigen/Core>

#include "models/math/lanes.hpp"

namespace hil::lanes {

struct Vec3 {
  L2 x;
  L2 y;
  L2 z;

  /// a in lane 0, b in lane 1.
  [[nodiscard]] static Vec3 of(const Eigen::Vector3d& a, const Eigen::Vector3d& b) noexcept {
    return {make(a.x(), b.x()), make(a.y(), b.y()), make(a.z(), b.z())};
  }
  [[nodiscard]] Eigen::Vector3d lane(int i) const noexcept { return {x[i], y[i], z[i]}; }
};

[[nodiscard]] inline L2 dot(const Vec3& a, const Vec3& b) noexcept {
  return a.x * b.x + (a.y * b.y + a.z * b.z);  // Eigen: a0·b0 + (a1·b1 + a2·b2)
}

[[nodiscard]] inline Vec3 cross(const Vec3& a, const Vec3& b) noexcept {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// Eigen's normalized(): v/|v| component by component, v itself where |v|² is not > 0.
[[nodiscard]] inline Vec3 normalized(const Vec3& v) noexcept {
  const L2 squared = dot(v, v);
  const L2 norm = sqrt(squared);
  const Mask2 positive = squared > splat(0.0);
  return {select(positive, v.x / norm, v.x), select(positive, v.y / norm, v.y),
          select(positive, v.z / norm, v.z)};
}

/// M·v of a constant matrix: row r is M(r,0)·v.x + (M(r,1)·v.y + M(r,2)·v.z), Eigen's order.
[[nodiscard]] inline Vec3 times(const Eigen::Matrix3d& m, const Vec3& v) noexcept {
  const auto row = [&](int r) {
    return splat(m(r, 0)) * v.x + (splat(m(r, 1)) * v.y + splat(m(r, 2)) * v.z);
  };
  return {row(0), row(1), row(2)};
}

[[nodiscard]] inline Vec3 operator+(const Vec3& a, const Vec3& b) noexcept {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
[[nodiscard]] inline Vec3 operator-(const Vec3& a, const Vec3& b) noexcept {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
/// s·v, per lane.
[[nodiscard]] inline Vec3 operator*(L2 s, const Vec3& v) noexcept {
  return {s * v.x, s * v.y, s * v.z};
}

}  // namespace hil::lanes
