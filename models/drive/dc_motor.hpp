#pragma once
// DC permanent-magnet motor and its reduction gear: one wheel drive of RAVON
// (ravon-distributed-realtime-sim.txt §3.4, §3.7: Huebner HAC 71.11.6 modelled as a DC
// permanent-magnet motor, Cyclo Drive 6000 1:59 per wheel). docs/models.md "Electric drive".
//
//   L·di/dt   = u − R·i − k·ω_m                        (armature)
//   J_m·dω_m/dt = k·i − τ_f(ω_m) − τ_load/(N·η_eff)    (rotor, free-standing form)
//   τ_f(ω_m)  = b·ω_m + τ_c·tanh(ω_m/ω_ε)               (rotor + gear-input friction)
//
// η_eff = η when the motor drives the wheel and 1/η when the wheel back-drives the motor, so
// that the gear always loses (1 − η) of the power it carries. τ_c = 0 gives the issue's
// viscous-only equation; the Coulomb term is the "parametric friction block" RAVON §3.8
// fitted to the lifted-wheel currents.
//
// In the vehicle the rotor is rigidly geared to its wheel (ω_m = N·ω), so the rotor is not a
// state of its own: geared_drive() folds it into the wheel's spin equation. Pure functions,
// SI units; RT-safe.

namespace hil::models {

struct DcMotorParams {
  double resistance = 0.06;        ///< R: armature resistance [Ω], > 0
  double inductance = 2.5e-4;      ///< L: armature inductance [H], > 0
  double torque_constant = 0.18;   ///< k: torque constant = back-EMF constant [N·m/A = V·s/rad]
  double rotor_inertia = 4.0e-4;   ///< J_m [kg·m²], ≥ 0
  double viscous_friction = 1e-4;  ///< b [N·m·s/rad], ≥ 0
  double coulomb_friction = 0.0;   ///< τ_c [N·m], ≥ 0 (0: the issue's viscous-only model)
  double coulomb_speed = 2.0;      ///< ω_ε: tanh regularisation of τ_c [rad/s], > 0
};

struct GearParams {
  double ratio = 59.0;      ///< N = ω_m/ω_wheel, > 0 (RAVON: Cyclo 1:59)
  double efficiency = 0.9;  ///< η ∈ (0, 1]: output power / input power when motoring
};

/// di/dt = (u − R·i − k·ω_m)/L [A/s].
[[nodiscard]] double motor_current_rate(const DcMotorParams& p, double u, double i,
                                        double omega_m) noexcept;

/// τ_f(ω_m) = b·ω_m + τ_c·tanh(ω_m/ω_ε): friction torque on the rotor [N·m].
[[nodiscard]] double motor_friction_torque(const DcMotorParams& p, double omega_m) noexcept;

/// τ_m = k·i − τ_f(ω_m): the torque the rotor delivers to the gear input when it does not
/// accelerate [N·m].
[[nodiscard]] double motor_shaft_torque(const DcMotorParams& p, double i, double omega_m) noexcept;

/// Free-standing rotor (motor tests, benches): dω_m/dt = (τ_m − τ_load/(N·η_eff))/J_m with
/// τ_load the torque the wheel takes from the gear output (+ opposes forward motion) and η_eff
/// chosen by the sign of the power τ_load·ω_m. Requires J_m > 0.
[[nodiscard]] double motor_speed_rate(const DcMotorParams& p, const GearParams& g, double i,
                                      double omega_m, double load_torque) noexcept;

/// The rotor as seen by the wheel it is rigidly geared to (ω_m = N·ω). The wheel then obeys
///   (I_wheel + reflected_inertia)·dω/dt = drive_torque + other_torque.
struct GearedDrive {
  double drive_torque = 0.0;       ///< Q_drive = η_eff·N·τ_m [N·m]
  double reflected_inertia = 0.0;  ///< η_eff·J_m·N² [kg·m²]
  double efficiency = 1.0;         ///< η_eff: η when motoring, 1/η when back-driven
};

/// Folds the rotor into the wheel equation with the gear efficiency on the side the power
/// actually flows. The gear input carries τ_in = τ_m − J_m·dω_m/dt; eliminating dω/dt gives
/// τ_in ∝ τ_m·I_wheel − J_m·N·other_torque, whose sign times ω decides the direction exactly
/// (the same sign under either assumption, so there is no algebraic loop and no ambiguity).
/// At ω = 0 the direction of the coming acceleration decides. `other_torque` is everything
/// else acting on the wheel (brake, −r_eff·Fx, bearing friction) and `wheel_inertia` the
/// wheel's own spin inertia; pass 0 for both to decide on the sign of τ_m·ω alone.
[[nodiscard]] GearedDrive geared_drive(const DcMotorParams& p, const GearParams& g,
                                       double shaft_torque, double omega_wheel, double other_torque,
                                       double wheel_inertia) noexcept;

}  // namespace hil::models
