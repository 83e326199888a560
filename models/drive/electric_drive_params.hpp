#pragma once
// Parameter set of the RAVON electric drive (ravon-distributed-realtime-sim.txt §3.4–3.8) and
// its 48 V lead-acid pack. The seed gives the structure and a few numbers (4 wheel drives,
// Cyclo 1:59, 48 V lead-acid, 2000 rev/min maximum rotor speed, 333 µs solver step); every
// other number is an assumption documented in docs/models.md "RAVON parameters". Setup phase.

#include <numbers>

#include "models/battery/battery_datasheet.hpp"
#include "models/drive/electric_drive.hpp"

namespace hil::models {

/// RAVON §3.8: the maximum rotor speed, 2000 rev/min [rad/s].
inline constexpr double kRavonMaxRotorSpeed = 2000.0 * 2.0 * std::numbers::pi / 60.0;

/// One RAVON wheel drive: DC equivalent of the Huebner HAC 71.11.6, Cyclo 1:59, cascade PI.
[[nodiscard]] DriveUnitParams ravon_drive_unit();

/// The 48 V lead-acid pack (24 cells, 100 A·h rated) as datasheet points at 0.2 C.
[[nodiscard]] BatteryDatasheet ravon_battery_datasheet();

/// Four drive units on one battery extracted from ravon_battery_datasheet(), validated
/// (validate_electric_drive()). May throw; setup phase only.
[[nodiscard]] ElectricDriveParams ravon_drive_params();

}  // namespace hil::models
