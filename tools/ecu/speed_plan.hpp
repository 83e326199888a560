#pragma once
// The speed the virtual ECU aims for: the scenario's target (by time for a straight run, by
// the point passed for a path), braking to stop at the path's end, and the reference that
// follows the target at the plan's acceleration limits, once per ECU cycle. Setup: the
// constructor; the rest is RT (no allocation).

#include <cstddef>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "runtime/scenario/course_path.hpp"

namespace hil::ecu {

class SpeedPlan {
 public:
  SpeedPlan(const config::DrivingPlan& plan, const runtime::CoursePath& path);

  /// RT: the target speed at time `t` [s] with the vehicle at `at` on the path [m/s].
  [[nodiscard]] double target(double t, const runtime::PathSample& at) const noexcept;

  /// RT: moves `reference` toward `target` by at most the plan's acceleration (or
  /// deceleration) over `dt`; returns the new reference.
  [[nodiscard]] double follow(double reference, double target, double dt) const noexcept;

  /// The highest speed the plan asks for [m/s].
  [[nodiscard]] double max_speed() const noexcept { return max_speed_; }

 private:
  std::vector<config::SpeedStep> steps_;
  std::vector<double> segment_speed_;  ///< target on each path segment (by point)
  bool stop_at_end_;
  double path_length_;
  double max_acceleration_;
  double max_deceleration_;
  double max_speed_ = 0.0;
};

}  // namespace hil::ecu
