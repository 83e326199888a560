#pragma once
// Where a scenario's course lies in the world (x east, y north): its planned path and the
// cones along both edges of each lane gate (every 3 m and at its ends), mapped from the course
// frame (runtime/scenario/course_frame.hpp). What the console's `course` message and the 3D
// scene draw. Setup phase; a pure function.

#include <vector>

#include "config/scenario/scenario_objects.hpp"
#include "config/scenario/scenario_spec.hpp"

namespace hil::runtime {

struct WorldPoint {
  double x = 0.0, y = 0.0;
};

struct CourseLayout {
  std::vector<WorldPoint> path;   ///< the driving plan's path
  std::vector<WorldPoint> cones;  ///< pairs: the right then the left edge of each station
};

/// Cones along a lane gate's edges are at most this far apart [m].
inline constexpr double kConeSpacing = config::kCourseConeSpacing;

[[nodiscard]] CourseLayout course_layout(const config::ScenarioSpec& s);

}  // namespace hil::runtime
