#pragma once
// Parameter sets of the combustion powertrain (models/drive/powertrain.hpp). Sources per number in
// docs/models.md "Combustion powertrain"; setup phase (tables may throw on construction).

#include "models/drive/powertrain.hpp"

namespace hil::models {

/// HMMWV-like diesel (public Project Chrono HMMWV shafts powertrain and 4WD driveline: engine
/// and loss maps, torque-converter maps, 3 forward gears, final drive, inertias, shift rpm and
/// latency). Drives wheel slots 0–3 through open differentials.
[[nodiscard]] PowertrainParams hmmwv_powertrain();

/// AutoSim-style car (autosim-physics-thesis.txt §4.4.5: five gears plus neutral, automatic
/// up-shift at the rpm of maximum torque): a documented 1.6 L petrol curve, automated dry
/// clutch, front-wheel drive on slots 0–1. `mode` selects manual or automatic shifting.
[[nodiscard]] PowertrainParams autosim_car_powertrain(ShiftMode mode = ShiftMode::automatic);

}  // namespace hil::models
