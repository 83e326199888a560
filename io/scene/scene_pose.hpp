#pragma once
// Rotations of the scene's frames (io/scene/scene.hpp) as unit quaternions (x, y, z, w: the
// order of foxglove.Quaternion) and the rotation of a vector by one. The body's attitude is
// ISO 8855's z-y-x sequence: q = qz(yaw)·qy(pitch)·qx(roll), as vehicle.body.{roll,pitch,yaw}.
// Pure functions; thread-safe.

#include <array>
#include <cmath>

namespace hil::io::scene {

using Vec3 = std::array<double, 3>;

struct Quaternion {
  double x = 0.0, y = 0.0, z = 0.0, w = 1.0;
};

/// Rotation by `angle` [rad] about the x, y or z axis.
[[nodiscard]] inline Quaternion about_x(double angle) noexcept {
  return {.x = std::sin(angle / 2), .w = std::cos(angle / 2)};
}
[[nodiscard]] inline Quaternion about_y(double angle) noexcept {
  return {.y = std::sin(angle / 2), .w = std::cos(angle / 2)};
}
[[nodiscard]] inline Quaternion about_z(double angle) noexcept {
  return {.z = std::sin(angle / 2), .w = std::cos(angle / 2)};
}

/// The Hamilton product a·b: first b, then a.
[[nodiscard]] inline Quaternion operator*(const Quaternion& a, const Quaternion& b) noexcept {
  return {.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          .y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          .z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
          .w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

/// The body's attitude from its Euler angles [rad]: qz(yaw)·qy(pitch)·qx(roll).
[[nodiscard]] inline Quaternion attitude(double roll, double pitch, double yaw) noexcept {
  return about_z(yaw) * about_y(pitch) * about_x(roll);
}

/// `v` rotated by the unit quaternion `q` (q·v·q*).
[[nodiscard]] inline Vec3 rotate(const Quaternion& q, const Vec3& v) noexcept {
  const Quaternion p{.x = v[0], .y = v[1], .z = v[2], .w = 0.0};
  const Quaternion conjugate{.x = -q.x, .y = -q.y, .z = -q.z, .w = q.w};
  const Quaternion r = q * p * conjugate;
  return {r.x, r.y, r.z};
}

}  // namespace hil::io::scene
