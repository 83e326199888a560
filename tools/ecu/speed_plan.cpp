#include "tools/ecu/speed_plan.hpp"

#include <algorithm>
#include <cmath>

namespace hil::ecu {

SpeedPlan::SpeedPlan(const config::DrivingPlan& plan, const runtime::CoursePath& path)
    : steps_(plan.steps),
      stop_at_end_(plan.stop_at_end),
      path_length_(path.length()),
      max_acceleration_(plan.max_acceleration),
      max_deceleration_(plan.max_deceleration) {
  if (!plan.point_speed.empty()) {
    // The speed of point i holds along segment i
    segment_speed_.assign(
        plan.point_speed.begin(),
        plan.point_speed.begin() +
            static_cast<std::ptrdiff_t>(std::min(plan.point_speed.size(), path.size() - 1)));
    segment_speed_.resize(path.size() - 1, segment_speed_.empty() ? 0.0 : segment_speed_.back());
  }
  for (const config::SpeedStep& s : steps_) max_speed_ = std::max(max_speed_, std::abs(s.speed));
  for (const double v : segment_speed_) max_speed_ = std::max(max_speed_, std::abs(v));
}

double SpeedPlan::target(double t, const runtime::PathSample& at) const noexcept {
  double v = 0.0;
  if (!segment_speed_.empty()) {
    v = segment_speed_[std::min(at.segment, segment_speed_.size() - 1)];
  } else {
    for (const config::SpeedStep& s : steps_) {
      if (s.at_s <= t) v = s.speed;
    }
  }
  if (stop_at_end_) {
    // v² = 2·a·d: the highest speed from which the deceleration stops at the end
    const double to_go = std::max(0.0, path_length_ - at.s);
    v = std::min(v, std::sqrt(2.0 * max_deceleration_ * to_go));
  }
  return v;
}

double SpeedPlan::follow(double reference, double target, double dt) const noexcept {
  // Accelerating away from zero is limited by max_acceleration, slowing toward zero by
  // max_deceleration
  const bool speeding_up = std::abs(target) > std::abs(reference);
  const double step = (speeding_up ? max_acceleration_ : max_deceleration_) * dt;
  return reference + std::clamp(target - reference, -step, step);
}

}  // namespace hil::ecu
