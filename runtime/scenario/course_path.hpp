#pragma once
// A polyline path in the course frame with arc length, heading and curvature, and the
// projection of a point onto it (the closest point near the last one: the path may cross
// itself). What the path follower and the gates measure the cross-track error against.
// Construction is setup phase; project() is RT (no allocation, O(window)).

#include <cstddef>
#include <vector>

#include "config/scenario/iso3888_course.hpp"

namespace hil::runtime {

/// Where a point is relative to the path.
struct PathSample {
  double s = 0.0;            ///< arc length of the closest point [m]
  double cross_track = 0.0;  ///< distance from the path, + to its left [m]
  double heading = 0.0;      ///< path heading there, course frame [rad]
  double curvature = 0.0;    ///< path curvature there, + turning left [1/m]
  std::size_t segment = 0;   ///< segment index of the closest point
};

class CoursePath {
 public:
  /// Setup: at least 2 points, consecutive ones apart (std::invalid_argument otherwise).
  explicit CoursePath(std::vector<config::CoursePoint> points);

  /// RT: the closest point to (x, y) among the segments around `hint` (updated). Before the
  /// first and after the last point the end segments extend straight.
  [[nodiscard]] PathSample project(double x, double y, std::size_t& hint) const noexcept;
  /// Setup or RT: the closest point over the whole path (O(n)); sets `hint`.
  [[nodiscard]] PathSample project_global(double x, double y, std::size_t& hint) const noexcept;

  [[nodiscard]] double length() const noexcept { return s_.back(); }
  [[nodiscard]] std::size_t size() const noexcept { return points_.size(); }
  /// Arc length at point i.
  [[nodiscard]] double s_at(std::size_t i) const noexcept { return s_[i]; }
  /// Curvature assigned to point i (0 at the ends) [1/m].
  [[nodiscard]] double curvature_at(std::size_t i) const noexcept { return kappa_[i]; }

  /// Segments searched behind and ahead of the hint by project().
  static constexpr std::size_t kBehind = 8;
  static constexpr std::size_t kAhead = 64;

 private:
  /// Distance from (x, y) to segment i and the parameter t of the closest point.
  [[nodiscard]] double distance_to(std::size_t i, double x, double y, double& t) const noexcept;
  [[nodiscard]] PathSample sample(std::size_t i, double t, double x, double y) const noexcept;
  [[nodiscard]] PathSample search(std::size_t first, std::size_t last, double x, double y,
                                  std::size_t& hint) const noexcept;

  std::vector<config::CoursePoint> points_;
  std::vector<double> s_;          ///< arc length at each point
  std::vector<double> heading_;    ///< per segment
  std::vector<double> cos_, sin_;  ///< of each segment's heading
  std::vector<double> kappa_;      ///< per point
};

/// Angle wrapped to (−π, π].
[[nodiscard]] double wrap_angle(double a) noexcept;

}  // namespace hil::runtime
