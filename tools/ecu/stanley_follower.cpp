#include "tools/ecu/stanley_follower.hpp"

#include <algorithm>
#include <cmath>

namespace hil::ecu {

StanleyFollower::StanleyFollower(StanleyGains gains, double wheelbase, double max_angle,
                                 double tracked) noexcept
    : gains_(gains),
      max_angle_(max_angle),
      off_tracking_(0.5 * (wheelbase * wheelbase - tracked * tracked)) {}

double StanleyFollower::update(const runtime::PathSample& at, double heading, double v,
                               double r) const noexcept {
  const double speed = std::max(v, 0.0);
  // Thrun et al. 2006 eq. (8) + Hoffmann et al. 2007 eq. (7): heading, cross-track (softened
  // at low speed, about the offset line), yaw damping, steady-state yaw
  const double heading_error = runtime::wrap_angle(at.heading - heading);
  const double e = at.cross_track + off_tracking_ * at.curvature;  // 0 on the offset line
  const double cross_track = std::atan(gains_.k * e / (gains_.k_soft + speed));
  const double damping = gains_.k_yaw * (speed * at.curvature - r);
  const double steady_state_yaw = gains_.k_ag * speed * speed * at.curvature;
  return std::clamp(heading_error - cross_track + damping + steady_state_yaw, -max_angle_,
                    max_angle_);
}

}  // namespace hil::ecu
