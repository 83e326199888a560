#include "runtime/scenario/course_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace hil::runtime {

double wrap_angle(double a) noexcept {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  a = std::remainder(a, kTwoPi);  // [−π, π]
  return a <= -std::numbers::pi ? a + kTwoPi : a;
}

CoursePath::CoursePath(std::vector<config::CoursePoint> points) : points_(std::move(points)) {
  if (points_.size() < 2) throw std::invalid_argument("a path needs at least 2 points");
  const std::size_t n = points_.size();
  s_.assign(n, 0.0);
  heading_.assign(n - 1, 0.0);
  kappa_.assign(n, 0.0);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double dx = points_[i + 1].x - points_[i].x;
    const double dy = points_[i + 1].y - points_[i].y;
    const double length = std::hypot(dx, dy);
    if (!(length > 1e-6)) throw std::invalid_argument("a path's consecutive points coincide");
    s_[i + 1] = s_[i] + length;
    heading_[i] = std::atan2(dy, dx);
    cos_.push_back(dx / length);
    sin_.push_back(dy / length);
  }
  // Discrete curvature at interior points: turn angle over the mean of the adjacent segments
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double turn = wrap_angle(heading_[i] - heading_[i - 1]);
    kappa_[i] = turn / (0.5 * (s_[i + 1] - s_[i - 1]));
  }
}

double CoursePath::distance_to(std::size_t i, double x, double y, double& t) const noexcept {
  const config::CoursePoint& a = points_[i];
  const double length = s_[i + 1] - s_[i];
  const double along = (x - a.x) * cos_[i] + (y - a.y) * sin_[i];
  // The end segments extend beyond the path's ends; inner ones are clamped
  t = along / length;
  if (i > 0) t = std::max(t, 0.0);
  if (i + 2 < points_.size()) t = std::min(t, 1.0);
  return std::hypot(x - (a.x + t * length * cos_[i]), y - (a.y + t * length * sin_[i]));
}

PathSample CoursePath::sample(std::size_t i, double t, double x, double y) const noexcept {
  const config::CoursePoint& a = points_[i];
  const double across = -(x - a.x) * sin_[i] + (y - a.y) * cos_[i];
  const double tc = std::clamp(t, 0.0, 1.0);
  // Heading and curvature vary linearly between the points (vertex heading: the mean of
  // the adjacent segments'), so that a finely sampled curve is followed smoothly
  const double h0 =
      i > 0 ? heading_[i] - 0.5 * wrap_angle(heading_[i] - heading_[i - 1]) : heading_[i];
  const double h1 = i + 2 < points_.size()
                        ? heading_[i] + 0.5 * wrap_angle(heading_[i + 1] - heading_[i])
                        : heading_[i];
  return PathSample{.s = s_[i] + t * (s_[i + 1] - s_[i]),
                    .cross_track = across,
                    .heading = wrap_angle(h0 + tc * wrap_angle(h1 - h0)),
                    .curvature = kappa_[i] + tc * (kappa_[i + 1] - kappa_[i]),
                    .segment = i};
}

PathSample CoursePath::search(std::size_t first, std::size_t last, double x, double y,
                              std::size_t& hint) const noexcept {
  std::size_t best = first;
  double best_t = 0.0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = first; i <= last; ++i) {
    double t = 0.0;
    const double distance = distance_to(i, x, y, t);
    if (distance < best_distance) {
      best_distance = distance;
      best = i;
      best_t = t;
    }
  }
  hint = best;
  return sample(best, best_t, x, y);
}

PathSample CoursePath::project(double x, double y, std::size_t& hint) const noexcept {
  const std::size_t segments = points_.size() - 1;
  const std::size_t h = std::min(hint, segments - 1);
  const std::size_t first = h > kBehind ? h - kBehind : 0;
  const std::size_t last = std::min(segments - 1, h + kAhead);
  return search(first, last, x, y, hint);
}

PathSample CoursePath::project_global(double x, double y, std::size_t& hint) const noexcept {
  return search(0, points_.size() - 2, x, y, hint);
}

}  // namespace hil::runtime
