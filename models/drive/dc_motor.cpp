#include "models/drive/dc_motor.hpp"

#include <cmath>

namespace hil::models {

double motor_current_rate(const DcMotorParams& p, double u, double i, double omega_m) noexcept {
  // RAVON §3.7 (Modelica DC PM motor): L·di/dt = u − R·i − k·ω_m
  return (u - p.resistance * i - p.torque_constant * omega_m) / p.inductance;
}

double motor_friction_torque(const DcMotorParams& p, double omega_m) noexcept {
  // b·ω_m; RAVON §3.8 friction block: + τ_c·tanh(ω_m/ω_ε) (docs/models.md)
  return p.viscous_friction * omega_m + p.coulomb_friction * std::tanh(omega_m / p.coulomb_speed);
}

double motor_shaft_torque(const DcMotorParams& p, double i, double omega_m) noexcept {
  return p.torque_constant * i - motor_friction_torque(p, omega_m);  // k·i − τ_f(ω_m)
}

double motor_speed_rate(const DcMotorParams& p, const GearParams& g, double i, double omega_m,
                        double load_torque) noexcept {
  // J_m·dω_m/dt = k·i − b·ω_m − τ_load/(N·η); back-driven: τ_load·η/N
  const bool motoring = load_torque * omega_m >= 0.0;
  const double gear_input =
      motoring ? load_torque / (g.ratio * g.efficiency) : load_torque * g.efficiency / g.ratio;
  return (motor_shaft_torque(p, i, omega_m) - gear_input) / p.rotor_inertia;
}

GearedDrive geared_drive(const DcMotorParams& p, const GearParams& g, double shaft_torque,
                         double omega_wheel, double other_torque, double wheel_inertia) noexcept {
  const double N = g.ratio;
  const double J = p.rotor_inertia;
  // Sign of the gear-input torque τ_in = τ_m − J_m·N·dω/dt with dω/dt eliminated (docs:
  // "Gear efficiency"); with I_wheel = other = 0 it degenerates to τ_m.
  double flow = shaft_torque * wheel_inertia - J * N * other_torque;
  if (wheel_inertia == 0.0 && other_torque == 0.0) flow = shaft_torque;
  // Direction of motion: ω, or at standstill the acceleration about to happen.
  const double direction =
      omega_wheel != 0.0 ? omega_wheel : g.efficiency * N * shaft_torque + other_torque;
  const double eta = flow * direction >= 0.0 ? g.efficiency : 1.0 / g.efficiency;
  // Rotor rigidly geared: (I_w + η_eff·J_m·N²)·dω/dt = η_eff·N·τ_m + Q_other
  return {.drive_torque = eta * N * shaft_torque,
          .reflected_inertia = eta * J * N * N,
          .efficiency = eta};
}

}  // namespace hil::models
