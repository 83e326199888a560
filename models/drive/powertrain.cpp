#include "models/drive/powertrain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hil::models {

namespace {

using L = PowertrainLayout;

/// Torque from the engine into the gearbox input, and the clutch twist rate.
struct Coupled {
  double pump = 0.0;
  double input = 0.0;
  double speed_ratio = 0.0;
  double clutch_twist_rate = 0.0;
};

Coupled couple(const PowertrainParams& p, const PowertrainState& x,
               const PowertrainDiscreteState& d, double omega_in, bool in_gear) noexcept {
  const double omega_e = x[L::kEngineSpeed];
  Coupled c;
  if (p.coupling == PowertrainCoupling::torque_converter) {
    // In neutral the turbine spins free with the pump: no torque (SR = 1).
    if (!in_gear) return c;
    const TorqueConverterTorques t = torque_converter(p.torque_converter, omega_e, omega_in);
    c.pump = t.pump;
    c.input = t.turbine;
    c.speed_ratio = t.speed_ratio;
    return c;
  }
  // Automatic dry clutch: capacity rises with engine speed (launch) and after each shift.
  const ClutchParams& k = p.clutch;
  const double bite = std::clamp(
      (omega_e - k.engage_start_speed) / (k.engage_full_speed - k.engage_start_speed), 0.0, 1.0);
  const double capacity =
      in_gear ? k.max_torque * bite * shift_engagement(p.transmission, d.transmission) : 0.0;
  const CouplingTorque t =
      compliant_coupling(k.spring, x[L::kClutchTwist], omega_e - omega_in, capacity);
  c.pump = t.torque;
  c.input = t.torque;
  c.clutch_twist_rate = t.twist_rate;
  return c;
}

std::size_t driven_count(const PowertrainParams& p) noexcept {
  return static_cast<std::size_t>(std::count(p.driven.begin(), p.driven.end(), true));
}

}  // namespace

PowertrainState powertrain_initial_state(const PowertrainParams& p) noexcept {
  PowertrainState x = PowertrainState::Zero();
  x[L::kEngineSpeed] = p.engine.idle_speed;
  return x;
}

PowertrainDiscreteState powertrain_initial_discrete_state(const PowertrainParams& p) noexcept {
  return {.transmission = transmission_initial_state(p.transmission), .throttle = 0.0};
}

void powertrain_update(const PowertrainParams& p, PowertrainDiscreteState& d,
                       const PowertrainState& x, const PowertrainCommand& cmd, double dt) noexcept {
  if (std::isfinite(cmd.throttle)) d.throttle = std::clamp(cmd.throttle, 0.0, 1.0);
  // AutoSim §4.4.5: the shift decision reads the rpm the gear imposes on its input shaft
  const double omega_in = gear_ratio(p.transmission, d.transmission.gear) * x[L::kPropshaftSpeed];
  transmission_update(p.transmission, d.transmission, cmd.shift_up, cmd.shift_down, omega_in, dt);
}

PowertrainRates powertrain_derivative(const PowertrainParams& p, const PowertrainState& x,
                                      const PowertrainDiscreteState& d,
                                      const WheelValues& wheel_omega) noexcept {
  const TransmissionParams& tr = p.transmission;
  const double r_g = gear_ratio(tr, d.transmission.gear);
  const bool in_gear = r_g != 0.0;
  const double omega_e = x[L::kEngineSpeed];
  const double omega_p = x[L::kPropshaftSpeed];
  const double omega_in = r_g * omega_p;  // rigid gearbox in gear

  PowertrainRates r;
  r.engine_torque = engine_torque(p.engine, d.throttle, omega_e);
  const Coupled c = couple(p, x, d, omega_in, in_gear);
  r.pump_torque = c.pump;
  r.input_torque = c.input;
  r.speed_ratio = c.speed_ratio;

  // AutoSim §4.4.4: torque through the gears times r_g and the efficiency n, here by the
  // direction of power flow (n when the engine drives, 1/n when the wheels drive the engine)
  const double eta = c.input * omega_in >= 0.0 ? tr.efficiency : 1.0 / tr.efficiency;
  const double gear_output = r_g * eta * c.input;
  const double inertia = p.output_inertia + (in_gear ? p.input_inertia * r_g * r_g : 0.0);

  // Open differentials: carrier speed = r_d·mean(ω_driven), equal torque split
  const std::size_t n = driven_count(p);
  double omega_sum = 0.0;
  for (std::size_t j = 0; j < kMaxWheels; ++j) {
    if (p.driven[j]) omega_sum += wheel_omega[j];
  }
  const double omega_carrier = n > 0 ? tr.final_drive * omega_sum / static_cast<double>(n) : 0.0;
  const CouplingTorque shaft =
      compliant_coupling(p.driveshaft, x[L::kShaftTwist], omega_p - omega_carrier,
                         std::numeric_limits<double>::infinity());
  r.shaft_torque = shaft.torque;
  for (std::size_t j = 0; j < kMaxWheels; ++j) {
    // AutoSim §4.4.4: T_drive = T·r_d, split equally by the open differential(s)
    if (p.driven[j]) r.drive_torque[j] = tr.final_drive * shaft.torque / static_cast<double>(n);
  }

  r.x_dot[L::kEngineSpeed] = (r.engine_torque - c.pump) / p.engine.inertia;  // J_e·ω̇_e
  r.x_dot[L::kPropshaftSpeed] = (gear_output - shaft.torque) / inertia;      // J_p·ω̇_p
  r.x_dot[L::kShaftTwist] = shaft.twist_rate;
  r.x_dot[L::kClutchTwist] = c.clutch_twist_rate;
  return r;
}

PowertrainOutputs powertrain_outputs(const PowertrainParams& p, const PowertrainDiscreteState& d,
                                     const PowertrainState& x,
                                     const WheelValues& wheel_omega) noexcept {
  const PowertrainRates r = powertrain_derivative(p, x, d, wheel_omega);
  const double r_g = gear_ratio(p.transmission, d.transmission.gear);
  return {.engine_speed = x[L::kEngineSpeed],
          .engine_torque = r.engine_torque,
          .throttle = engine_throttle(p.engine, d.throttle, x[L::kEngineSpeed]),
          .gear = d.transmission.gear,
          .input_speed = r_g * x[L::kPropshaftSpeed],
          .propshaft_speed = x[L::kPropshaftSpeed],
          .speed_ratio = r.speed_ratio,
          .coupling_torque = r.input_torque,
          .shaft_torque = r.shaft_torque,
          .wheel_torque = r.drive_torque};
}

}  // namespace hil::models
