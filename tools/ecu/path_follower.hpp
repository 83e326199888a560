#pragma once
// The lateral controller of the virtual ECU: AutoSim's PID steering control
// (autosim-physics-thesis.txt §6.2.3: Output = Kp·e + Ki·∫e + Kd·de/dt, e the deviation from
// the desired path) on the cross-track error of the reference point, in the distance domain,
// with the path's curvature fed forward:
//     κ_cmd = κ_path − (kp·e + ki·∫e ds + kd·de/ds),   de/ds = sin(ψ − ψ_path)
// The derivative is the exact kinematic rate of the cross-track error (no differencing of a
// quantised position). Over distance, the cross-track error obeys
// e''' + kd·e'' + kp·e' + ki·e = 0, so the gains follow from one convergence distance L (a
// triple pole at −1/L), the same at any speed. The integral accumulates only within a band
// around the path (integral separation): it is there for steady disturbances (a crosswind,
// a side slope), not to remember the way in.
// Setup: the constructor; update() is RT.

#include "runtime/scenario/course_path.hpp"

namespace hil::ecu {

struct PathFollowerGains {
  double kp = 0.0;             ///< [1/m²]
  double ki = 0.0;             ///< [1/m³]
  double kd = 0.0;             ///< [1/m]
  double integral_band = 0.0;  ///< integrate only while |e| < this [m]; 0: always
  /// The closed loop's three poles at −1/L [1/m]: (s + 1/L)³ = s³ + kd·s² + kp·s + ki, i.e.
  /// kd = 3/L, kp = 3/L², ki = 1/L³; the integral band L/10.
  [[nodiscard]] static PathFollowerGains for_distance(double L) noexcept;
};

class PathFollower {
 public:
  /// `max_curvature`: the steering's limit [1/m] (the command is clamped to it and the
  /// integral stops growing while it is).
  PathFollower(PathFollowerGains gains, double max_curvature) noexcept;

  /// RT: the curvature to steer for the reference point at `at` with heading `heading`
  /// (course frame), having moved `ds` [m] along the path since the last call.
  [[nodiscard]] double update(const runtime::PathSample& at, double heading, double ds) noexcept;

  void reset() noexcept { integral_ = 0.0; }
  [[nodiscard]] const PathFollowerGains& gains() const noexcept { return gains_; }
  [[nodiscard]] double integral() const noexcept { return integral_; }

 private:
  PathFollowerGains gains_;
  double max_curvature_;
  double integral_ = 0.0;  ///< ∫e ds [m²]
};

}  // namespace hil::ecu
