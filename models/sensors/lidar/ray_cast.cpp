#include "models/sensors/lidar/ray_cast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hil::models::lidar {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxSteps = 4096;

/// The nearer of two hits (no hit counts as infinitely far).
RayHit nearer(const RayHit& a, const RayHit& b) noexcept {
  if (!a.hit()) return b;
  if (!b.hit()) return a;
  return b.range < a.range ? b : a;
}

/// A root t of a·t² + b·t + c = 0 in (t_min, t_max], the smaller first; kInf when none.
struct Roots {
  double t0 = kInf, t1 = kInf;
};
Roots quadratic(double a, double b, double c) noexcept {
  if (std::abs(a) < 1e-15) {
    if (std::abs(b) < 1e-15) return {};
    return {.t0 = -c / b};
  }
  const double disc = b * b - 4.0 * a * c;
  if (disc < 0.0) return {};
  // Numerically stable form (Press et al., Numerical Recipes §5.6)
  const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
  double t0 = q / a;
  double t1 = q != 0.0 ? c / q : t0;
  if (t0 > t1) std::swap(t0, t1);
  return {.t0 = t0, .t1 = t1};
}

/// Box [−L/2, L/2] × [−W/2, W/2] × [0, H] in its frame: slab test (Kay & Kajiya 1986).
RayHit cast_box(const WorldObject& b, const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                double range_max) noexcept {
  const std::array<double, 3> lo{-b.length / 2, -b.width / 2, 0.0};
  const std::array<double, 3> hi{b.length / 2, b.width / 2, b.height};
  double t_near = -kInf;
  double t_far = kInf;
  int axis_near = -1;
  double sign_near = 0.0;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1e-15) {
      if (o[i] < lo[i] || o[i] > hi[i]) return {};
      continue;
    }
    double t1 = (lo[i] - o[i]) / d[i];
    double t2 = (hi[i] - o[i]) / d[i];
    double s = -1.0;  // entering through the low face: its normal is −axis
    if (t1 > t2) {
      std::swap(t1, t2);
      s = 1.0;
    }
    if (t1 > t_near) {
      t_near = t1;
      axis_near = i;
      sign_near = s;
    }
    t_far = std::min(t_far, t2);
    if (t_near > t_far) return {};
  }
  if (t_near <= 0.0 || t_near > range_max || axis_near < 0) return {};  // inside or behind
  return {.range = t_near, .cos_incidence = std::abs(sign_near * d[axis_near])};
}

/// Vertical cylinder of radius r, z ∈ [0, H], or cone of base radius r and apex at H.
RayHit cast_round(const WorldObject& c, bool cone, const Eigen::Vector3d& o,
                  const Eigen::Vector3d& d, double range_max) noexcept {
  const double r = c.width / 2;
  const double h = c.height;
  RayHit best;
  // Side: x² + y² = ρ(z)², ρ = r (cylinder) or r·(H − z)/H (cone)
  const double k = cone ? r / h : 0.0;
  const double rz = cone ? k * (h - o.z()) : r;  // ρ at the origin's height
  const double a = d.x() * d.x() + d.y() * d.y() - k * k * d.z() * d.z();
  const double b = 2.0 * (o.x() * d.x() + o.y() * d.y() + k * rz * d.z());
  const double cc = o.x() * o.x() + o.y() * o.y() - rz * rz;
  const Roots roots = quadratic(a, b, cc);
  for (const double t : {roots.t0, roots.t1}) {
    if (!(t > 0.0 && t <= range_max)) continue;
    const Eigen::Vector3d p = o + t * d;
    if (p.z() < 0.0 || p.z() > h) continue;
    // Outward normal of the side: (x, y, k·ρ) normalised (cone), (x, y, 0) (cylinder)
    const double rho = std::hypot(p.x(), p.y());
    const Eigen::Vector3d n = Eigen::Vector3d(p.x(), p.y(), k * rho).normalized();
    best = nearer(best, {.range = t, .cos_incidence = std::abs(n.dot(d))});
    break;
  }
  // Caps: the base z = 0 (both), the top z = H (cylinder)
  for (const double zc : {0.0, cone ? -1.0 : h}) {
    if (zc < 0.0 && cone) continue;
    if (std::abs(d.z()) < 1e-15) continue;
    const double t = (zc - o.z()) / d.z();
    if (!(t > 0.0 && t <= range_max)) continue;
    const Eigen::Vector3d p = o + t * d;
    if (p.x() * p.x() + p.y() * p.y() > r * r) continue;
    best = nearer(best, {.range = t, .cos_incidence = std::abs(d.z())});
  }
  return best;
}

}  // namespace

RayHit cast_object(const WorldObject& object, const ObjectState& state, const Eigen::Vector3d& o,
                   const Eigen::Vector3d& d, double range_max) noexcept {
  // Into the object's frame: base centre at the origin, x along its heading
  const double c = std::cos(state.yaw);
  const double s = std::sin(state.yaw);
  const Eigen::Vector3d rel = o - Eigen::Vector3d(state.x, state.y, state.z);
  const Eigen::Vector3d ol(c * rel.x() + s * rel.y(), -s * rel.x() + c * rel.y(), rel.z());
  const Eigen::Vector3d dl(c * d.x() + s * d.y(), -s * d.x() + c * d.y(), d.z());
  switch (object.shape) {
    case ObjectShape::box:
      return cast_box(object, ol, dl, range_max);
    case ObjectShape::cylinder:
      return cast_round(object, false, ol, dl, range_max);
    case ObjectShape::cone:
      return cast_round(object, true, ol, dl, range_max);
  }
  return {};
}

RayHit cast_terrain(const Terrain& terrain, double slope_bound, const Eigen::Vector3d& o,
                    const Eigen::Vector3d& d, double range_max) noexcept {
  const auto gap = [&](double t) noexcept {
    return o.z() + t * d.z() - terrain.height(o.x() + t * d.x(), o.y() + t * d.y());
  };
  const double d_h = std::hypot(d.x(), d.y());
  const double closing = slope_bound * d_h - d.z();  // the fastest the gap can close [m/m]
  double t = 0.0;
  double g = gap(0.0);
  if (g <= 0.0) return {};  // the sensor is under the ground
  for (int step = 0; step < kMaxSteps && t < range_max; ++step) {
    if (closing <= 0.0) return {};  // rises faster than any slope
    const double t_next = std::min(t + std::max(g / closing, kMinStep), range_max);
    const double g_next = gap(t_next);
    if (g_next > 0.0) {
      t = t_next;
      g = g_next;
      continue;
    }
    // Bisection on [t, t_next]: gap > 0 at lo, ≤ 0 at hi
    double lo = t;
    double hi = t_next;
    while (hi - lo > kTolerance) {
      const double mid = 0.5 * (lo + hi);
      (gap(mid) > 0.0 ? lo : hi) = mid;
    }
    const double t_hit = 0.5 * (lo + hi);
    const Eigen::Vector3d p = o + t_hit * d;
    const Eigen::Vector3d n = terrain.normal(p.x(), p.y());
    return {.range = t_hit, .cos_incidence = std::abs(n.dot(d))};
  }
  return {};
}

RayHit cast_ray(const RayWorld& world, const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                double range_max) noexcept {
  RayHit best;
  const std::size_t n = std::min(world.objects.size(), world.states.size());
  const double d_h2 = d.x() * d.x() + d.y() * d.y();
  for (std::size_t i = 0; i < n; ++i) {
    const WorldObject& object = world.objects[i];
    const ObjectState& state = world.states[i];
    // Cheap rejection in the horizontal plane: the ray's line passes farther from the base
    // centre than the object's bounding radius, or the object is wholly behind the sensor
    const double radius = object.shape == ObjectShape::box
                              ? 0.5 * std::hypot(object.length, object.width)
                              : 0.5 * object.width;
    const double cx = state.x - o.x();
    const double cy = state.y - o.y();
    const double cross = cx * d.y() - cy * d.x();  // |c × d_h| = distance · |d_h|
    if (cross * cross > radius * radius * d_h2) continue;
    if (cx * d.x() + cy * d.y() < -radius * std::sqrt(d_h2)) continue;
    const double limit = best.hit() ? best.range : range_max;
    best = nearer(best, cast_object(object, state, o, d, limit));
  }
  if (world.terrain != nullptr) {
    const double limit = best.hit() ? best.range : range_max;
    best = nearer(best, cast_terrain(*world.terrain, world.slope_bound, o, d, limit));
  }
  return best;
}

}  // namespace hil::models::lidar
