#pragma once
// Hydrodynamic torque converter (AutoSim §4.4.3: "automatic transmission usually consists of a
// torque converter and an automatic gear box"), in the capacity-factor form of Chrono's
// ChShaftsTorqueConverter, whose HMMWV maps we use:
//
//   SR = ω_t/ω_p (0 when either is ~0, clamped to ≥ 0)
//   pump torque    T_p = (ω_p/K(SR))²      turbine torque T_t = TR(SR)·T_p       (SR < 1)
//   reverse flow   T_p = T_t = −(ω_p/K(2 − SR))²                                  (SR > 1)
//   ω_p < 0 (engine turning backwards): no torque.
//
// Chrono flips the sign at SR = 1 (K(1) is finite), which makes a vehicle cruising at SR ≈ 1
// chatter under a fixed-step integrator. We blend forward and reverse flow linearly across
// |SR − 1| < coupling_band, so that the torque crosses zero continuously. docs/models.md
// "Combustion powertrain". Pure function; RT-safe.

#include "models/drive/lookup_table.hpp"

namespace hil::models {

struct TorqueConverterParams {
  LookupTable capacity_factor;  ///< K(SR) [rad/s/√(N·m)], > 0, SR ∈ [0, 1]
  LookupTable torque_ratio;     ///< TR(SR) [-], ≥ 1 below the coupling point, 1 at SR = 1
  double coupling_band = 0.02;  ///< half-width of the zero-crossing blend around SR = 1, > 0
};

struct TorqueConverterTorques {
  double pump = 0.0;         ///< torque the pump takes from the engine [N·m]
  double turbine = 0.0;      ///< torque the turbine hands to the gearbox input [N·m]
  double speed_ratio = 0.0;  ///< SR [-]
};

[[nodiscard]] TorqueConverterTorques torque_converter(const TorqueConverterParams& p,
                                                      double omega_pump,
                                                      double omega_turbine) noexcept;

}  // namespace hil::models
