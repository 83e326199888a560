#pragma once
// Test rig: one tire carrying mass m on a straight incline, longitudinal motion only,
// integrated with rt::rk4_step exactly as the chassis will (tire evaluated at every stage).
// State: [x along the slope (+ uphill), v, wheel spin ω, patch deflection u_x].

#include <Eigen/Core>
#include <cmath>
#include <functional>

#include "models/tire/tire.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models::testing {

constexpr double kGravity = 9.81;

struct QuarterCar {
  TireParams tire;
  SurfaceProperties surface;
  double mass = 400.0;        ///< [kg]
  double grade = 0.0;         ///< rise over run, 0.15 = 15 %
  bool wheel_locked = false;  ///< brake holds ω = 0
  std::function<double(double t, double omega)> torque = [](double, double) { return 0.0; };

  [[nodiscard]] double theta() const { return std::atan(grade); }

  /// Static deflection that carries m·g·cosθ; the vertical DOF is not part of this rig.
  [[nodiscard]] double deflection() const {
    return mass * kGravity * std::cos(theta()) / tire.vertical_stiffness;
  }

  [[nodiscard]] TireOutputs tire_at(const Eigen::Vector4d& x) const {
    return evaluate_tire(tire,
                         {.v_par = x[1], .delta = deflection(), .omega = x[2], .surface = surface},
                         {.u_x = x[3]});
  }

  [[nodiscard]] Eigen::Vector4d derivative(double t, const Eigen::Vector4d& x) const {
    const TireOutputs out = tire_at(x);
    const double a = out.Fx / mass - kGravity * std::sin(theta());
    const double omega_dot =
        wheel_locked
            ? 0.0
            : wheel_spin_acceleration(tire, torque(t, x[2]), out.r_eff, out.Fx_traction, x[2]);
    return {x[1], a, omega_dot, out.patch_rate.u_x};
  }

  [[nodiscard]] Eigen::Vector4d step(double t, const Eigen::Vector4d& x, double dt) const {
    return rt::rk4_step([this](double tt, const Eigen::Vector4d& xx) { return derivative(tt, xx); },
                        t, x, dt);
  }
};

}  // namespace hil::models::testing
