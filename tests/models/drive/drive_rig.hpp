#pragma once
// Test rig for the electric drive: each motor drives a wheel of inertia I with viscous bearing
// friction β and an optional external load torque — no tire. With no load it is RAVON's
// lifted-wheel test (ravon-distributed-realtime-sim.txt §3.8). The drive state, the wheel
// spins and energy accumulators are one vector integrated with rt::rk4_step; the controllers
// run at the tick boundaries exactly as the vehicle will call them.

#include <Eigen/Core>
#include <algorithm>
#include <functional>

#include "models/drive/electric_drive.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models::testing {

/// Integrated powers [J] of the energy-balance test: indices into the state after the wheels.
using EnergyTerm = int;
inline constexpr EnergyTerm kBatteryOut = 0;     ///< ∫ V·i_b dt at the battery terminals
inline constexpr EnergyTerm kCopper = 1;         ///< ∫ Σ R·i² dt
inline constexpr EnergyTerm kMotorFriction = 2;  ///< ∫ Σ τ_f(ω_m)·ω_m dt
inline constexpr EnergyTerm kConverter = 3;      ///< ∫ H-bridge losses dt
inline constexpr EnergyTerm kChopper = 4;        ///< ∫ brake-chopper power dt
inline constexpr EnergyTerm kGear = 5;           ///< ∫ Σ (τ_in·ω_m − τ_out·ω) dt
inline constexpr EnergyTerm kBearing = 6;        ///< ∫ Σ β·ω² dt
inline constexpr EnergyTerm kLoad = 7;  ///< ∫ Σ −Q_load·ω dt: work done on the external load
inline constexpr int kEnergyTerms = 8;

struct DriveRig {
  using L = ElectricDriveLayout;
  static constexpr int kWheels = L::kSize;  ///< ω_j [rad/s]
  static constexpr int kEnergy = kWheels + static_cast<int>(kMaxWheels);
  static constexpr int kSize = kEnergy + kEnergyTerms;
  using State = Eigen::Matrix<double, kSize, 1>;

  ElectricDriveParams drive;
  double wheel_inertia = 1.0;    ///< I_wheel [kg·m²] (RAVON wheel + tire, assumed)
  double bearing_damping = 0.1;  ///< β [N·m·s/rad] (tire_params.hpp default)
  /// External torque on wheel j at time t and spin ω [N·m]; none by default.
  std::function<double(double t, std::size_t j, double omega)> load = [](double, std::size_t,
                                                                         double) { return 0.0; };

  /// Bus voltage of an external battery (drive.external_battery), held over each tick [V].
  double external_voltage = 0.0;

  ElectricDriveControllerState controller;
  State x = State::Zero();
  double t = 0.0;
  long ticks = 0;  ///< tick() calls: the controllers sample on every controller_decimation-th

  explicit DriveRig(const ElectricDriveParams& p, double soc = 1.0) : drive(p) {
    x.head<L::kSize>() = electric_drive_initial_state(p, soc);
  }

  [[nodiscard]] static ElectricDriveState drive_state(const State& s) { return s.head<L::kSize>(); }
  [[nodiscard]] static WheelValues omegas(const State& s) {
    WheelValues w{};
    for (std::size_t j = 0; j < kMaxWheels; ++j) w[j] = s[kWheels + static_cast<int>(j)];
    return w;
  }

  [[nodiscard]] State derivative(double tt, const State& s) const {
    const ElectricDriveState xd = drive_state(s);
    DriveWheelInputs in;
    in.omega = omegas(s);
    for (std::size_t j = 0; j < drive.motor_count; ++j) {
      in.other_torque[j] = -bearing_damping * in.omega[j] + load(tt, j, in.omega[j]);
      in.inertia[j] = wheel_inertia;
    }
    const ElectricDriveRates r =
        electric_drive_derivative(drive, xd, controller.duty, in, external_voltage);
    State d = State::Zero();
    d.head<L::kSize>() = r.x_dot;
    d[kEnergy + kBatteryOut] = r.bus.voltage * r.bus.battery_current;
    d[kEnergy + kConverter] = r.bus.converter_loss;
    d[kEnergy + kChopper] = r.bus.chopper_power;
    for (std::size_t j = 0; j < drive.motor_count; ++j) {
      const DriveUnitParams& u = drive.units[j];
      const double w = in.omega[j];
      const double wm = u.gear.ratio * w;
      const double i = xd[L::current(j)];
      // (I + I_ref)·dω/dt = Q_drive + Q_other  (electric_drive.hpp, step 2)
      const double wdot =
          (r.drive_torque[j] + in.other_torque[j]) / (wheel_inertia + r.reflected_inertia[j]);
      d[kWheels + static_cast<int>(j)] = wdot;
      const double tau_in =
          motor_shaft_torque(u.motor, i, wm) - u.motor.rotor_inertia * u.gear.ratio * wdot;
      const double tau_out = r.drive_torque[j] - r.reflected_inertia[j] * wdot;
      d[kEnergy + kCopper] += u.motor.resistance * i * i;
      d[kEnergy + kMotorFriction] += motor_friction_torque(u.motor, wm) * wm;
      d[kEnergy + kGear] += tau_in * wm - tau_out * w;
      d[kEnergy + kBearing] += bearing_damping * w * w;
      d[kEnergy + kLoad] += -load(tt, j, w) * w;
    }
    return d;
  }

  /// One RK4 step with the duties held as they are (no controller call).
  void step_held(double dt) {
    x = rt::rk4_step([this](double tt, const State& s) { return derivative(tt, s); }, t, x, dt);
    t += dt;
  }

  /// One tick: controllers at the boundary on every controller_decimation-th tick (speed
  /// references per wheel), then one RK4 step.
  void tick(const WheelValues& wheel_speed_ref, double dt) {
    if (ticks++ % std::max(drive.controller_decimation, 1) == 0) {
      (void)electric_drive_controller_sample(drive, controller, drive_state(x), omegas(x),
                                             wheel_speed_ref, dt, external_voltage);
    }
    x = rt::rk4_step([this](double tt, const State& s) { return derivative(tt, s); }, t, x, dt);
    t += dt;
  }

  [[nodiscard]] ElectricDriveOutputs outputs() const {
    return electric_drive_outputs(drive, controller, drive_state(x), omegas(x), external_voltage);
  }

  /// ½·L·i² + ½·J_m·ω_m² + ½·I·ω² summed over the motors [J].
  [[nodiscard]] double stored_energy() const {
    double e = 0.0;
    const WheelValues w = omegas(x);
    for (std::size_t j = 0; j < drive.motor_count; ++j) {
      const DriveUnitParams& u = drive.units[j];
      const double i = x[L::current(j)];
      const double wm = u.gear.ratio * w[j];
      e += 0.5 * u.motor.inductance * i * i + 0.5 * u.motor.rotor_inertia * wm * wm +
           0.5 * wheel_inertia * w[j] * w[j];
    }
    return e;
  }

  [[nodiscard]] double energy(EnergyTerm term) const { return x[kEnergy + term]; }
};

}  // namespace hil::models::testing
