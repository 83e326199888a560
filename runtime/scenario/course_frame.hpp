#pragma once
// The course frame of a scenario (config/scenario/scenario.proto): origin at the start position, x
// along the start heading, y to its left. World poses (x east, y north, yaw from east) map
// into it by one rotation. Pure functions; RT-safe.

#include <cmath>

#include "config/scenario/scenario_spec.hpp"

namespace hil::runtime {

struct CoursePose {
  double x = 0.0;
  double y = 0.0;
  double heading = 0.0;  ///< [rad], unwrapped difference to the start heading
};

class CourseFrame {
 public:
  explicit CourseFrame(const config::ScenarioPose& start) noexcept
      : x0_(start.x),
        y0_(start.y),
        yaw0_(start.yaw),
        c_(std::cos(start.yaw)),
        s_(std::sin(start.yaw)) {}

  /// A world pose in the course frame.
  [[nodiscard]] CoursePose to_course(double x, double y, double yaw) const noexcept {
    const double dx = x - x0_;
    const double dy = y - y0_;
    return {.x = c_ * dx + s_ * dy, .y = -s_ * dx + c_ * dy, .heading = yaw - yaw0_};
  }

 private:
  double x0_, y0_, yaw0_, c_, s_;
};

/// `p` moved by `dx` along its heading (and `dy` to its left) [m].
[[nodiscard]] inline CoursePose offset(const CoursePose& p, double dx, double dy) noexcept {
  const double c = std::cos(p.heading);
  const double s = std::sin(p.heading);
  return {.x = p.x + c * dx - s * dy, .y = p.y + s * dx + c * dy, .heading = p.heading};
}

}  // namespace hil::runtime
