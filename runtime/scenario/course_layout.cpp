#include "runtime/scenario/course_layout.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "config/scenario/scenario_objects.hpp"

namespace hil::runtime {

CourseLayout course_layout(const config::ScenarioSpec& s) {
  const double c = std::cos(s.start.yaw);
  const double sn = std::sin(s.start.yaw);
  const auto world = [&](double x, double y) {
    return WorldPoint{.x = s.start.x + c * x - sn * y, .y = s.start.y + sn * x + c * y};
  };
  CourseLayout out;
  for (const config::CoursePoint& p : s.drive.path) out.path.push_back(world(p.x, p.y));
  // The same cones as the scenario's cone_<n> objects (config/scenario/scenario_objects.hpp)
  for (const config::CoursePoint& p : config::lane_gate_cones(s.gates))
    out.cones.push_back(world(p.x, p.y));
  return out;
}

}  // namespace hil::runtime
