#pragma once
// Combustion engine as a torque source on its crank inertia (autosim-physics-thesis.txt §4.4.4:
// "the engine torque can be obtained from the rpm value", Figure 21 torque–rpm curve; the
// full-load map plus a loss map is the form of Chrono's shafts engine, from which the HMMWV
// numbers come). docs/models.md "Combustion powertrain".
//
//   T_e(θ, ω) = θ_eff·T_full(ω) + T_loss(ω)
//   θ_eff     = max(θ, θ_idle(ω))·cut(ω)
//   θ_idle    = clamp(k_idle·(ω_idle − ω), 0, 1)      (idle governor, proportional)
//   cut(ω)    = clamp((ω_limit − ω)/band, 0, 1)        (rev limiter: fuel cut ramp)
//
// AutoSim §4.4.5 holds the rpm at its limits ("the rpm value remains at that value"); the
// governor and the limiter do that with continuous torque, so RK4 sees no chatter.
// Pure functions; RT-safe.

#include "models/drive/lookup_table.hpp"

namespace hil::models {

struct EngineParams {
  LookupTable full_load_torque;  ///< T_full(ω): torque at full throttle [N·m] vs ω [rad/s]
  LookupTable loss_torque;       ///< T_loss(ω) ≤ 0: friction and pumping [N·m] vs ω [rad/s]
  double inertia = 0.2;          ///< J_e: crank, flywheel and pump/clutch drum [kg·m²], > 0
  double idle_speed = 83.8;      ///< ω_idle [rad/s] (800 rev/min)
  double idle_gain = 0.1;        ///< k_idle: governor throttle per rad/s below idle [s/rad]
  double rev_limit = 680.7;      ///< ω_limit: no fuel above it [rad/s] (6500 rev/min)
  double rev_limit_band = 10.5;  ///< fuel is cut linearly over this band below ω_limit [rad/s]
};

/// θ_eff ∈ [0, 1]: driver throttle (clamped to [0, 1]) or idle governor, times the fuel cut.
[[nodiscard]] double engine_throttle(const EngineParams& p, double throttle, double omega) noexcept;

/// T_e = θ_eff·T_full(ω) + T_loss(ω) [N·m].
[[nodiscard]] double engine_torque(const EngineParams& p, double throttle, double omega) noexcept;

}  // namespace hil::models
