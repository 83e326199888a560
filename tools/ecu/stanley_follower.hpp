#pragma once
// The lateral controller of the virtual ECU for a vehicle steered at its front axle alone
// (the HMMWV): the Stanley controller on the front axle's errors (Thrun et al., "Stanley: The
// Robot that Won the DARPA Grand Challenge", J. Field Robotics 23(9), 2006, §9.2 eq. (8)),
// with the yaw-rate damping, the soft speed term and the steady-state yaw of Hoffmann,
// Tomlin, Montemerlo & Thrun, "Autonomous Automobile Trajectory Tracking for Off-Road
// Driving", ACC 2007, eq. (7):
//     δ = (ψ_path − ψ) − atan(k·e_f / (k_soft + v)) + k_yaw·(v·κ_path − r) + k_ag·v²·κ_path
// e_f is the front axle centre's cross-track error (+ left of the path), ψ_path and κ_path the
// path's heading and curvature where it projects, r the measured yaw rate. The heading term
// steers the front axle along the path (on an arc it holds the kinematic atan(L·κ)); the
// cross-track term brings it back as de_f/dt = −v·sin(atan(k·e_f/(k_soft + v))): at the rate
// k for small errors whatever the speed, so its horizon (k_soft + v)/k grows with speed; the
// last term is Hoffmann's ψ_ss = k_ag·v·r_traj, the yaw the tires' slip costs in a steady
// turn (the understeer, per lateral acceleration v²·κ); the yaw damping keeps the tires' lag
// from turning the heading loop into an oscillation at speed.
// The front axle is steered onto a line offset outward by κ·(L² − d²)/2, so that the point d
// ahead of the rear axle (the CG, which the deviation gates judge) stays on the path in a
// steady turn: on a circle about the rear axle's centre line, that point and the front axle
// lie that far apart radially (to first order in κ).
// Setup: the constructor; update() is RT.

#include "runtime/scenario/course_path.hpp"

namespace hil::ecu {

// Defaults: Thrun et al.'s k = 2.5; k_yaw and k_ag from a grid on the HMMWV's ISO 3888-1
// lane change at 60 km/h (≥ 0.19 m in every lane; docs/ecu.md "Driver"), where its 1 m/s
// scenarios keep their deviations under their gates.
struct StanleyGains {
  double k = 2.5;       ///< cross-track gain [1/s]
  double k_soft = 1.0;  ///< keeps the term finite at standstill [m/s]
  double k_yaw = 0.6;   ///< yaw-rate damping [rad per rad/s]
  double k_ag = 0.015;  ///< steady-state yaw per lateral acceleration [rad per m/s²]
};

class StanleyFollower {
 public:
  /// `wheelbase` L [m]; `max_angle`: the front axle's steering limit [rad]; `tracked`: the
  /// distance d ahead of the rear axle of the point meant to stay on the path [m] (the CG).
  StanleyFollower(StanleyGains gains, double wheelbase, double max_angle, double tracked) noexcept;

  /// RT: the front axle's central angle [rad] for its centre at `at` (its projection on the
  /// path) with heading `heading` (course frame), forward speed `v` [m/s] and yaw rate `r`.
  [[nodiscard]] double update(const runtime::PathSample& at, double heading, double v,
                              double r) const noexcept;

 private:
  StanleyGains gains_;
  double max_angle_;
  double off_tracking_;  ///< (L² − d²)/2: the front axle's offset outward per unit curvature
};

}  // namespace hil::ecu
