#pragma once
// Built-in parameter sets of the two rigs of DESIGN.md §6, for tests, benchmarks and the
// rig files' defaults. Every number's source or assumption: docs/models.md "Vehicle presets".

#include "models/vehicle/vehicle_params.hpp"

namespace hil::models {

/// RAVON (RAVON paper §3.3: wheelbase 1.206 m, track 1.156 m, Ackermann steering on both
/// axles, four driven wheels), ≈ 750 kg, electric drive (ravon_drive_params()).
[[nodiscard]] VehicleParams ravon_params();

/// HMMWV (ROAMS paper; public Chrono HMMWV values: ≈ 2600 kg, wheelbase 3.378 m, track
/// 1.819 m, 37×12.5R16.5 tires of radius 0.47 m), front steering, four driven wheels,
/// diesel with torque converter and automatic gearbox (hmmwv_powertrain()).
[[nodiscard]] VehicleParams hmmwv_params();

}  // namespace hil::models
