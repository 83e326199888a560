#include "models/world/object_motion.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hil::models {

namespace {

/// The phases of one path segment of length L [m] from s_k entered at e and left at x [m/s],
/// at most u, accelerations ±a: speed up, cruise at u, slow down. The profile is the lower
/// envelope v²(d) = min(e² + 2a·d, u², x² + 2a·(L − d)) (v² is linear in distance under constant
/// acceleration: v² = v0² + 2a·Δs), each straight piece one phase.
void segment_phases(double s_k, double L, double e, double x, double u, double a, double& t,
                    std::vector<MotionPhase>& out) {
  const auto add = [&](double v0, double v1, double acc, double ds, double s0) {
    if (ds <= 0.0) return;
    const double dt = acc != 0.0 ? (v1 - v0) / acc : ds / v0;
    if (!(dt > 0.0)) return;
    out.push_back({.t0 = t, .s0 = s0, .v0 = v0, .acceleration = acc, .duration = dt});
    t += dt;
  };
  // Where the speed-up and slow-down lines meet, and the speed there
  const double d_peak = std::clamp((x * x - e * e + 2.0 * a * L) / (4.0 * a), 0.0, L);
  const double v_peak = std::sqrt(std::max(0.0, e * e + 2.0 * a * d_peak));
  if (v_peak <= u) {
    add(e, v_peak, a, d_peak, s_k);
    add(v_peak, x, -a, L - d_peak, s_k + d_peak);
    return;
  }
  const double d_up = std::max(0.0, (u * u - e * e) / (2.0 * a));
  const double d_down = std::max(0.0, (u * u - x * x) / (2.0 * a));
  add(e, u, a, d_up, s_k);
  add(u, u, 0.0, L - d_up - d_down, s_k + d_up);
  add(u, x, -a, d_down, s_k + L - d_down);
}

}  // namespace

ObjectMotion::ObjectMotion(const MovingObjectSpec& spec) : start_(spec.start), path_(spec.path) {
  start_.moving = false;
  start_.vx = start_.vy = 0.0;
  if (path_.empty()) return;
  if (path_.size() < 2)
    throw std::invalid_argument(spec.object.name + ": a path needs at least 2 points");
  const double a = spec.max_acceleration;
  if (!(a > 0.0) || !std::isfinite(a))
    throw std::invalid_argument(spec.object.name + ": max_acceleration must be > 0");
  const std::size_t n = path_.size();
  arc_.assign(n, 0.0);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double len = std::hypot(path_[k + 1].x - path_[k].x, path_[k + 1].y - path_[k].y);
    if (!(len > 0.0))
      throw std::invalid_argument(spec.object.name + ": two consecutive path points are equal");
    if (!(path_[k].speed > 0.0) || !std::isfinite(path_[k].speed))
      throw std::invalid_argument(spec.object.name + ": path speeds must be > 0");
    arc_[k + 1] = arc_[k] + len;
  }
  // Knot speeds: at rest at both ends, at most the lower of the two segments' speeds between,
  // reachable from the knot before (forward pass) and able to slow to the one after (backward)
  std::vector<double> w(n, 0.0);
  for (std::size_t k = 1; k + 1 < n; ++k) w[k] = std::min(path_[k - 1].speed, path_[k].speed);
  for (std::size_t k = 1; k < n; ++k)
    w[k] = std::min(w[k], std::sqrt(w[k - 1] * w[k - 1] + 2.0 * a * (arc_[k] - arc_[k - 1])));
  for (std::size_t k = n - 1; k-- > 0;)
    w[k] = std::min(w[k], std::sqrt(w[k + 1] * w[k + 1] + 2.0 * a * (arc_[k + 1] - arc_[k])));
  double t = 0.0;
  for (std::size_t k = 0; k + 1 < n; ++k)
    segment_phases(arc_[k], arc_[k + 1] - arc_[k], w[k], w[k + 1], path_[k].speed, a, t, phases_);
  duration_ = t;
  place(0.0, start_);
}

void ObjectMotion::place(double s, ObjectState& out) const noexcept {
  // The segment holding s: the last point at or before it
  const auto it = std::upper_bound(arc_.begin(), arc_.end(), s);
  std::size_t k = it == arc_.begin() ? 0 : static_cast<std::size_t>(it - arc_.begin()) - 1;
  k = std::min(k, path_.size() - 2);
  const PathPoint& p = path_[k];
  const PathPoint& q = path_[k + 1];
  const double len = arc_[k + 1] - arc_[k];
  const double f = std::clamp((s - arc_[k]) / len, 0.0, 1.0);
  out.x = p.x + f * (q.x - p.x);
  out.y = p.y + f * (q.y - p.y);
  out.yaw = std::atan2(q.y - p.y, q.x - p.x);
}

ObjectState ObjectMotion::at(double t) const noexcept {
  if (path_.empty() || !(t >= 0.0)) return start_;
  ObjectState out = start_;
  if (t >= duration_) {
    place(arc_.back(), out);
    return out;
  }
  // The phase running at t: the last one starting at or before it
  const auto it = std::upper_bound(phases_.begin(), phases_.end(), t,
                                   [](double time, const MotionPhase& p) { return time < p.t0; });
  const MotionPhase& ph = it == phases_.begin() ? phases_.front() : *(it - 1);
  const double tau = std::min(t - ph.t0, ph.duration);
  const double v = std::max(0.0, ph.v0 + ph.acceleration * tau);
  const double s = ph.s0 + ph.v0 * tau + 0.5 * ph.acceleration * tau * tau;
  place(std::min(s, arc_.back()), out);
  out.vx = v * std::cos(out.yaw);
  out.vy = v * std::sin(out.yaw);
  out.moving = true;
  return out;
}

}  // namespace hil::models
