#pragma once
// Test rig for the combustion powertrain: a point-mass car on a flat straight road
// (AutoSim §7.1.1: "a clear, straight road without any gradient", accelerator fully pressed).
// The driven wheels are identical and lumped into one spin state with the tire model of
// models/tire/tire.hpp on dry pavement; the undriven wheels only roll. Aero drag ½·ρ·C_d·A·v² and
// rolling resistance C_rr·m·g act on the body. Integrated with rt::rk4_step; the powertrain's
// gear logic runs at the tick boundaries exactly as the vehicle will call it.

#include <Eigen/Core>
#include <cmath>
#include <numbers>
#include <vector>

#include "models/drive/powertrain.hpp"
#include "models/tire/tire.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models::testing {

/// A 195/65 R15-class car tire on the tire model of models/tire/tire.hpp (the AutoSim-style car).
inline TireParams car_tire() {
  return {.width = 0.195,
          .diameter = 0.62,
          .section_height = 0.12,
          .vertical_stiffness = 2.0e5,
          .vertical_damping = 2.0e3,
          .spin_inertia = 1.0};
}

struct ShiftEvent {
  double time = 0.0;  ///< [s]
  int from = 0;
  int to = 0;
  double speed_kmh = 0.0;  ///< vehicle speed at the shift
  double input_rpm = 0.0;  ///< gearbox input speed just before the shift [rev/min]
};

struct PointMassCar {
  // State: x [m], v [m/s], driven-wheel spin ω [rad/s], patch deflection u_x [m], powertrain.
  static constexpr int kX = 0, kV = 1, kOmega = 2, kPatch = 3, kPowertrain = 4;
  static constexpr int kSize = kPowertrain + PowertrainLayout::kSize;
  using State = Eigen::Matrix<double, kSize, 1>;

  PowertrainParams powertrain;
  TireParams tire;
  double mass = 1200.0;  ///< [kg]
  int wheel_count = 4;
  double drag_area = 0.65;  ///< C_d·A [m²]
  double rolling_resistance = 0.015;
  double air_density = 1.2;  ///< [kg/m³]
  double gravity = 9.81;

  PowertrainDiscreteState discrete;
  State x = State::Zero();
  double t = 0.0;
  std::vector<ShiftEvent> shifts;
  double max_propshaft_acceleration = 0.0;  ///< max |dω_p/dt| seen at the stages [rad/s²]

  PointMassCar(const PowertrainParams& p, const TireParams& tp, double m)
      : powertrain(p), tire(tp), mass(m) {
    discrete = powertrain_initial_discrete_state(p);
    x.segment<PowertrainLayout::kSize>(kPowertrain) = powertrain_initial_state(p);
  }

  [[nodiscard]] int driven_count() const {
    int n = 0;
    for (const bool d : powertrain.driven) n += d ? 1 : 0;
    return n;
  }
  [[nodiscard]] WheelValues wheel_omegas(const State& s) const {
    WheelValues w{};
    for (std::size_t j = 0; j < kMaxWheels; ++j) w[j] = powertrain.driven[j] ? s[kOmega] : 0.0;
    return w;
  }
  [[nodiscard]] static PowertrainState powertrain_state(const State& s) {
    return s.segment<PowertrainLayout::kSize>(kPowertrain);
  }

  [[nodiscard]] State derivative(double, const State& s) {
    const double load = mass * gravity / wheel_count;
    const TireOutputs tyre = evaluate_tire(
        tire, {.v_par = s[kV], .delta = load / tire.vertical_stiffness, .omega = s[kOmega]},
        {.u_x = s[kPatch]});
    const PowertrainRates r =
        powertrain_derivative(powertrain, powertrain_state(s), discrete, wheel_omegas(s));
    double q = 0.0;  // every driven wheel gets the same torque (open differentials)
    for (std::size_t j = 0; j < kMaxWheels && q == 0.0; ++j) q = r.drive_torque[j];
    State d = State::Zero();
    d[kX] = s[kV];
    const double drag = 0.5 * air_density * drag_area * s[kV] * std::abs(s[kV]);
    const double rolling = rolling_resistance * mass * gravity * std::tanh(s[kV] / 0.05);
    d[kV] = (driven_count() * tyre.Fx - drag - rolling) / mass;
    d[kOmega] = wheel_spin_acceleration(tire, q, tyre.r_eff, tyre.Fx, s[kOmega]);
    d[kPatch] = tyre.patch_rate.u_x;
    d.segment<PowertrainLayout::kSize>(kPowertrain) = r.x_dot;
    max_propshaft_acceleration =
        std::max(max_propshaft_acceleration, std::abs(r.x_dot[PowertrainLayout::kPropshaftSpeed]));
    return d;
  }

  /// One tick: gear logic and throttle at the boundary, then one RK4 step.
  void tick(const PowertrainCommand& cmd, double dt) {
    const int before = discrete.transmission.gear;
    const PowertrainOutputs o =
        powertrain_outputs(powertrain, discrete, powertrain_state(x), wheel_omegas(x));
    powertrain_update(powertrain, discrete, powertrain_state(x), cmd, dt);
    if (discrete.transmission.gear != before) {
      shifts.push_back({.time = t,
                        .from = before,
                        .to = discrete.transmission.gear,
                        .speed_kmh = 3.6 * x[kV],
                        .input_rpm = o.input_speed * 30.0 / std::numbers::pi});
    }
    x = rt::rk4_step([this](double tt, const State& s) { return derivative(tt, s); }, t, x, dt);
    t += dt;
  }

  /// Full throttle until `distance` [m] or `limit` [s]; returns the time [s] (limit if not).
  double time_to(double distance, double limit, double dt, const PowertrainCommand& cmd) {
    while (x[kX] < distance && t < limit) tick(cmd, dt);
    return t;
  }
};

}  // namespace hil::models::testing
