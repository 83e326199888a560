#pragma once
// Cascade speed/current controller of one RAVON wheel drive (ravon-distributed-realtime-sim.txt
// §3.5, Fig. 8): the reference speed from the ECU feeds an outer PI speed loop whose output, a
// current reference limited to ±I_max, feeds an inner PI current loop whose output is the
// reference voltage uRef for the PWM stage (§3.7); duty = uRef/V_battery ∈ [−1, 1].
// Both PIs: models/drive/pi_controller.hpp (forward-Euler integrators, clamping anti-windup). The
// controller runs on samples: measurements are taken at the sample instant, the duty is held
// until the next one (zero-order hold). Pure function over a caller-owned state; RT-safe.

#include "models/drive/pi_controller.hpp"

namespace hil::models {

struct CascadeControllerParams {
  /// Speed loop: rotor speed error [rad/s] → current reference [A]. Defaults: the RAVON
  /// lifted wheel (docs/models.md "The cascade controller"): crossover kp·k/J ≈ 250 rad/s on
  /// J ≈ 7.2e-4 kg·m² (rotor + wheel seen at the rotor), PI zero ki/kp = 20 rad/s.
  PiGains speed{.kp = 1.0, .ki = 20.0};
  /// Current loop: current error [A] → voltage reference [V]; kp = L·ω_c, ki = R·ω_c with
  /// ω_c = 1000 rad/s (the PI zero cancels the armature pole R/L).
  PiGains current{.kp = 0.25, .ki = 60.0};
  double current_limit = 60.0;  ///< I_max [A], > 0
};

/// What the controller sampled this instant.
struct CascadeMeasurement {
  double speed_ref = 0.0;    ///< rotor speed reference N·ω_ref [rad/s]
  double speed = 0.0;        ///< measured rotor speed ω_m [rad/s]
  double current = 0.0;      ///< measured armature current i [A]
  double bus_voltage = 0.0;  ///< measured battery (DC bus) voltage [V], ≥ 0
  /// Fraction ∈ [0, 1] of I_max allowed in the direction that draws power from the battery
  /// (low-battery derating); regeneration keeps the full limit.
  double motoring_limit_fraction = 1.0;
};

struct CascadeControllerState {
  PiState speed;             ///< integrator of the speed loop [A]
  PiState current;           ///< integrator of the current loop [V]
  double speed_ref = 0.0;    ///< last sampled rotor speed reference [rad/s]
  double current_ref = 0.0;  ///< last current reference (after the ±I_max limit) [A]
  double voltage_ref = 0.0;  ///< last uRef (after the ±V_bus limit) [V]
  double duty = 0.0;         ///< held duty ∈ [−1, 1]
};

/// One controller sample of sample time T [s]; updates the state and returns the new duty.
[[nodiscard]] double cascade_controller_step(const CascadeControllerParams& p,
                                             CascadeControllerState& s, const CascadeMeasurement& m,
                                             double T) noexcept;

}  // namespace hil::models
