#pragma once
// The electric drive train of RAVON (ravon-distributed-realtime-sim.txt §3.4–3.7, Fig. 6–8):
// up to kMaxWheels DC motors, each rigidly geared to one wheel, each with its cascade
// controller and an averaged PWM H-bridge, all fed from one battery (Tremblay–Dessaint).
// docs/models.md "Electric drive" and "Battery".
//
// Integration with the vehicle (the vehicle owns the state and the RK4 step):
//  1. On every `controller_decimation`-th tick boundary, before the RK4 step (the caller keeps
//     the rate: in a rig, the executive's decimation of the control stage):
//       duties = electric_drive_controller_sample(p, ctrl, x, wheel_omega, wheel_speed_ref, dt);
//     Between samples the duties ctrl.duty stay as they are, constant across every RK4 step
//     (zero-order hold).
//  2. In every RK4 stage, per motor j driving the wheel of spin ω_j:
//       rates = electric_drive_derivative(p, x, duties, {ω, other_torque, wheel_inertia});
//       d(x)/dt = rates.x_dot (this model's part of the vehicle state)
//       (I_wheel,j + rates.reflected_inertia[j])·dω_j/dt
//                   = rates.drive_torque[j] + other_torque_j        (other = brake − r·Fx − β·ω)
//     The rotor (ω_m = N·ω) has no state of its own; the gear efficiency sits on the side the
//     power flows (models/drive/dc_motor.hpp geared_drive()).
//  3. After the step: electric_drive_outputs(p, ctrl, x, wheel_omega) for the channels.
// External battery (p.external_battery, RAVON §3.6: the battery is a co-simulator on the
// shared-memory bus): the caller passes the bus voltage it received as `external_voltage` to
// steps 1–3, held over the step like the duties (zero-order hold). The drive reports i_b as
// before (what the co-simulator reads) and keeps integrating the built-in battery's states
// from it, so the extracted charge is the charge drawn. Without it the argument is ignored.
// Everything here is noexcept and allocation-free; thread-safety: pure functions over
// caller-owned values (call from one thread per state).

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "models/battery/battery.hpp"
#include "models/drive/dc_motor.hpp"
#include "models/drive/drive_controller.hpp"
#include "models/vehicle/wheel_values.hpp"

namespace hil::models {

/// Continuous state: one armature current per motor slot, then the battery.
struct ElectricDriveLayout {
  static constexpr int kCurrents = 0;                                    ///< i_j [A]
  static constexpr int kExtractedCharge = static_cast<int>(kMaxWheels);  ///< it [C]
  static constexpr int kFilteredCurrent = kExtractedCharge + 1;          ///< i* [A]
  static constexpr int kExpZone = kExtractedCharge + 2;                  ///< Exp [V]
  static constexpr int kSize = kExpZone + 1;
  [[nodiscard]] static constexpr int current(std::size_t j) {
    return kCurrents + static_cast<int>(j);
  }
};

using ElectricDriveState = Eigen::Matrix<double, ElectricDriveLayout::kSize, 1>;

struct DriveUnitParams {
  DcMotorParams motor;
  GearParams gear;
  CascadeControllerParams controller;
};

struct ConverterParams {
  double efficiency = 0.97;  ///< η_c of each H-bridge, in both directions, ∈ (0, 1]
  /// Limit of the net current back into the battery [A] (0: no regeneration). Power the
  /// battery may not take is burnt in a brake chopper (reported as chopper power).
  double max_regen_current = std::numeric_limits<double>::infinity();
};

struct DeratingParams {
  /// Below this terminal voltage the motoring current limit falls linearly, reaching 0 at
  /// the battery's cut-off voltage [V]. Regeneration is never derated.
  double start_voltage = 44.0;
};

struct ElectricDriveParams {
  std::array<DriveUnitParams, kMaxWheels> units{};  ///< motor j drives the wheel of slot j
  std::size_t motor_count = 4;                      ///< ≤ kMaxWheels
  ConverterParams converter;
  /// The built-in battery. With external_battery it still gives the cut-off, the voltage the
  /// external supply starts from (electric_drive_rest_voltage()) and the SOC of the charge drawn.
  BatteryParams battery;
  /// The battery is simulated outside (a co-simulator): the bus voltage is the caller's
  /// `external_voltage` instead of E − R·i_b. docs/models.md "External battery".
  bool external_battery = false;
  DeratingParams derating;
  int controller_decimation = 1;  ///< controllers run every n-th tick, ≥ 1
};

/// What the drive needs from the wheels, per motor slot.
struct DriveWheelInputs {
  WheelValues omega{};         ///< ω_j: spin of the wheel motor j drives [rad/s]
  WheelValues other_torque{};  ///< every other torque on that wheel [N·m] (power-flow sign)
  WheelValues inertia{};       ///< I_wheel,j: the wheel's own spin inertia [kg·m²]
};

/// The DC bus for given motor currents and duties (no state of its own).
struct DcBus {
  double battery_current = 0.0;  ///< i_b = Σ duty·i·(1/η_c or η_c), regen-limited [A]
  double voltage = 0.0;          ///< V = max(0, E − R·i_b), or max(0, external voltage) [V]
  double converter_loss = 0.0;   ///< Σ of the H-bridge losses [W], ≥ 0
  double chopper_power = 0.0;    ///< regeneration the battery may not take, burnt [W], ≥ 0
};

struct ElectricDriveRates {
  ElectricDriveState x_dot = ElectricDriveState::Zero();
  WheelValues drive_torque{};       ///< Q_drive on wheel j [N·m]
  WheelValues reflected_inertia{};  ///< rotor inertia seen by wheel j [kg·m²]
  DcBus bus;
};

struct ElectricDriveControllerState {
  std::array<CascadeControllerState, kMaxWheels> motors{};
  WheelValues duty{};  ///< held duties (zero-order hold between controller samples)
};

struct MotorOutputs {
  double current = 0.0;             ///< i [A]
  double rotor_speed = 0.0;         ///< ω_m = N·ω [rad/s]
  double duty = 0.0;                ///< held duty [-]
  double voltage = 0.0;             ///< u = duty·V_bus [V]
  double electrical_power = 0.0;    ///< u·i at the motor terminals [W]
  double shaft_torque = 0.0;        ///< τ_m = k·i − τ_f [N·m]
  double speed_ref = 0.0;           ///< rotor speed reference [rad/s]
  double current_ref = 0.0;         ///< [A]
  double voltage_ref = 0.0;         ///< uRef [V]
  double speed_integrator = 0.0;    ///< [A]
  double current_integrator = 0.0;  ///< [V]
};

struct BatteryOutputs {
  double voltage = 0.0;                  ///< terminal voltage [V]
  double current = 0.0;                  ///< + discharging [A]
  double soc = 1.0;                      ///< state of charge [-]
  double extracted_charge = 0.0;         ///< it [C]
  double filtered_current = 0.0;         ///< i* [A]
  double source_voltage = 0.0;           ///< E [V]
  double motoring_limit_fraction = 1.0;  ///< derating of the motoring current limit [-]
};

struct ElectricDriveOutputs {
  std::array<MotorOutputs, kMaxWheels> motors{};
  BatteryOutputs battery;
  double converter_loss = 0.0;  ///< [W]
  double chopper_power = 0.0;   ///< [W]
};

/// Currents 0, battery at rest at `soc` (battery_initial_state()).
[[nodiscard]] ElectricDriveState electric_drive_initial_state(const ElectricDriveParams& p,
                                                              double soc) noexcept;

/// The battery's three states out of the drive state.
[[nodiscard]] BatteryState battery_state_of(const ElectricDriveState& x) noexcept;

/// The built-in battery's terminal voltage at rest (i = 0) at state of charge `soc` [V]: where
/// an external battery's voltage starts before the co-simulator's first value arrives.
[[nodiscard]] double electric_drive_rest_voltage(const ElectricDriveParams& p, double soc) noexcept;

/// Averaged H-bridges on the battery: battery current, bus voltage, losses. `external_voltage`
/// [V] is the bus voltage when p.external_battery (clamped at ≥ 0), ignored otherwise.
[[nodiscard]] DcBus dc_bus(const ElectricDriveParams& p, const ElectricDriveState& x,
                           const WheelValues& duty, double external_voltage = 0.0) noexcept;

/// Fraction of I_max allowed for motoring at bus voltage V (DeratingParams).
[[nodiscard]] double motoring_limit_fraction(const ElectricDriveParams& p, double V) noexcept;

/// dx/dt and what the wheels feel, for the held duties (and the held external voltage, see
/// dc_bus()). Slots ≥ motor_count stay zero.
[[nodiscard]] ElectricDriveRates electric_drive_derivative(const ElectricDriveParams& p,
                                                           const ElectricDriveState& x,
                                                           const WheelValues& duty,
                                                           const DriveWheelInputs& wheels,
                                                           double external_voltage = 0.0) noexcept;

/// One sample of the controllers at a tick boundary (see the top of this file), on every
/// controller_decimation-th tick: its sample time is controller_decimation·dt (`dt`: the
/// tick's). `wheel_speed_ref` is what the ECU sends: wheel speeds [rad/s]; a non-finite
/// reference holds the previous one. Returns the duties to hold (also in s.duty).
/// `external_voltage`: the external battery's voltage held over the coming step (dc_bus()).
[[nodiscard]] WheelValues electric_drive_controller_sample(
    const ElectricDriveParams& p, ElectricDriveControllerState& s, const ElectricDriveState& x,
    const WheelValues& wheel_omega, const WheelValues& wheel_speed_ref, double dt,
    double external_voltage = 0.0) noexcept;

/// Everything worth a channel, for the state after a step (`external_voltage`: the one held
/// over that step, dc_bus()).
[[nodiscard]] ElectricDriveOutputs electric_drive_outputs(const ElectricDriveParams& p,
                                                          const ElectricDriveControllerState& s,
                                                          const ElectricDriveState& x,
                                                          const WheelValues& wheel_omega,
                                                          double external_voltage = 0.0) noexcept;

}  // namespace hil::models
