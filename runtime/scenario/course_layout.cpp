#include "runtime/scenario/course_layout.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace hil::runtime {

CourseLayout course_layout(const config::ScenarioSpec& s) {
  const double c = std::cos(s.start.yaw);
  const double sn = std::sin(s.start.yaw);
  const auto world = [&](double x, double y) {
    return WorldPoint{.x = s.start.x + c * x - sn * y, .y = s.start.y + sn * x + c * y};
  };
  CourseLayout out;
  for (const config::CoursePoint& p : s.drive.path) out.path.push_back(world(p.x, p.y));
  for (const config::GateSpec& g : s.gates) {
    const auto* lane = std::get_if<config::LaneGate>(&g.check);
    if (lane == nullptr) continue;
    const int n =
        std::max(1, static_cast<int>(std::ceil((lane->x_max - lane->x_min) / kConeSpacing)));
    for (int i = 0; i <= n; ++i) {
      const double x = lane->x_min + (lane->x_max - lane->x_min) * i / n;
      out.cones.push_back(world(x, lane->y_min));
      out.cones.push_back(world(x, lane->y_max));
    }
  }
  return out;
}

}  // namespace hil::runtime
