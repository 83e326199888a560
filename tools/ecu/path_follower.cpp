#include "tools/ecu/path_follower.hpp"

#include <algorithm>
#include <cmath>

namespace hil::ecu {

PathFollowerGains PathFollowerGains::for_distance(double L) noexcept {
  // (s + p)³ with p = 1/L: critically damped, no overshoot in the linear loop
  const double p = 1.0 / L;
  return {.kp = 3.0 * p * p, .ki = p * p * p, .kd = 3.0 * p, .integral_band = 0.1 * L};
}

PathFollower::PathFollower(PathFollowerGains gains, double max_curvature) noexcept
    : gains_(gains), max_curvature_(max_curvature) {}

double PathFollower::update(const runtime::PathSample& at, double heading, double ds) noexcept {
  const double e = at.cross_track;
  const double de_ds = std::sin(runtime::wrap_angle(heading - at.heading));
  // AutoSim §6.2.3: P + I + D, here over distance; the path's curvature fed forward
  const double pid = gains_.kp * e + gains_.ki * integral_ + gains_.kd * de_ds;
  const double unclamped = at.curvature - pid;
  const double kappa = std::clamp(unclamped, -max_curvature_, max_curvature_);
  // Anti-windup: integrate only while the command is not held at the steering's limit, or
  // when integrating moves it back from there
  const bool saturated = kappa != unclamped;
  const double increment = e * std::max(ds, 0.0);
  const bool in_band = gains_.integral_band <= 0.0 || std::abs(e) < gains_.integral_band;
  if (in_band && (!saturated || (unclamped > kappa) == (increment > 0.0))) integral_ += increment;
  if (gains_.ki > 0.0) {  // the integral alone never asks for more than the steering has
    const double limit = max_curvature_ / gains_.ki;
    integral_ = std::clamp(integral_, -limit, limit);
  }
  return kappa;
}

}  // namespace hil::ecu
