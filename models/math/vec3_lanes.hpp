#pragma once
// 3-vectors of lanes (lane l one wheel; models/math/lanes.hpp) with Eigen's order of operations
// for 3-vectors without vectorisation (a dot product sums x + (y + z); the cross product as
// Eigen writes it): each lane gets the bits the Eigen expression gives for its wheel alone.
// Pure: any thread.

#include <Eigen/Core>

#include "models/math/lanes.hpp"

namespace hil::lanes {

template <Lanes V>
struct Vec3Of {
  V x;
  V y;
  V z;

  /// Lane l = vector(l).
  template <class F>
  [[nodiscard]] static Vec3Of gather(F&& vector) noexcept {
    return {lanes::gather<V>([&](int l) { return vector(l).x(); }),
            lanes::gather<V>([&](int l) { return vector(l).y(); }),
            lanes::gather<V>([&](int l) { return vector(l).z(); })};
  }
  [[nodiscard]] Eigen::Vector3d lane(int i) const noexcept { return {x[i], y[i], z[i]}; }
};

template <Lanes V>
[[nodiscard]] V dot(const Vec3Of<V>& a, const Vec3Of<V>& b) noexcept {
  return a.x * b.x + (a.y * b.y + a.z * b.z);  // Eigen: a0·b0 + (a1·b1 + a2·b2)
}

template <Lanes V>
[[nodiscard]] Vec3Of<V> cross(const Vec3Of<V>& a, const Vec3Of<V>& b) noexcept {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// Eigen's normalized(): v/|v| component by component, v itself where |v|² is not > 0.
template <Lanes V>
[[nodiscard]] Vec3Of<V> normalized(const Vec3Of<V>& v) noexcept {
  const V squared = dot(v, v);
  const V norm = sqrt(squared);
  const MaskOf<V> positive = squared > splat<V>(0.0);
  return {select(positive, v.x / norm, v.x), select(positive, v.y / norm, v.y),
          select(positive, v.z / norm, v.z)};
}

/// M·v of a constant matrix: row r is M(r,0)·v.x + (M(r,1)·v.y + M(r,2)·v.z), Eigen's order.
template <Lanes V>
[[nodiscard]] Vec3Of<V> times(const Eigen::Matrix3d& m, const Vec3Of<V>& v) noexcept {
  const auto row = [&](int r) {
    return splat<V>(m(r, 0)) * v.x + (splat<V>(m(r, 1)) * v.y + splat<V>(m(r, 2)) * v.z);
  };
  return {row(0), row(1), row(2)};
}

template <Lanes V>
[[nodiscard]] Vec3Of<V> operator+(const Vec3Of<V>& a, const Vec3Of<V>& b) noexcept {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <Lanes V>
[[nodiscard]] Vec3Of<V> operator-(const Vec3Of<V>& a, const Vec3Of<V>& b) noexcept {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
/// s·v, per lane.
template <Lanes V>
[[nodiscard]] Vec3Of<V> operator*(V s, const Vec3Of<V>& v) noexcept {
  return {s * v.x, s * v.y, s * v.z};
}

}  // namespace hil::lanes
