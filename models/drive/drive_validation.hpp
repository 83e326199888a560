#pragma once
// Setup-phase checks of the drive parameter sets (DESIGN.md §5: bad input gets a clear error,
// never a crash on the real-time path). Each throws std::invalid_argument naming the field and
// the value, e.g. "electric drive: units[2].motor.inductance must be > 0 (got 0)".

#include "models/drive/electric_drive.hpp"
#include "models/drive/powertrain.hpp"

namespace hil::models {

/// Every parameter the electric drive divides by or relies on, for the motor_count units.
void validate_electric_drive(const ElectricDriveParams& p);

/// Engine, the coupling in use, gearbox (ratios decreasing; in automatic mode the up-shift
/// must land above the down-shift threshold in the next gear, or it would hunt), inertias,
/// driveline compliance, at least one driven wheel.
void validate_powertrain(const PowertrainParams& p);

}  // namespace hil::models
