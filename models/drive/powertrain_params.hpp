#pragma once
// Parameter sets of the combustion powertrain (models/drive/powertrain.hpp). Sources per number in
// docs/models.md "Combustion powertrain"; setup phase (tables may throw on construction).

#include "models/drive/powertrain.hpp"

namespace hil::models {

/// The M998 HMMWV's powertrain from public sources (6.2 L diesel, 150 hp at 3600 rev/min;
/// Turbo-Hydramatic 400, three gears 2.48/1.48/1.00; transfer case high range, differentials,
/// 1.92 geared hubs) in the structure of the Project Chrono HMMWV shafts powertrain, whose
/// torque-converter and loss maps, inertias and shift latency it keeps. Drives wheel slots 0–3
/// through open differentials.
[[nodiscard]] PowertrainParams hmmwv_powertrain();

/// AutoSim-style car (autosim-physics-thesis.txt §4.4.5: five gears plus neutral, automatic
/// up-shift at the rpm of maximum torque): a documented 1.6 L petrol curve, automated dry
/// clutch, front-wheel drive on slots 0–1. `mode` selects manual or automatic shifting.
[[nodiscard]] PowertrainParams autosim_car_powertrain(ShiftMode mode = ShiftMode::automatic);

}  // namespace hil::models
