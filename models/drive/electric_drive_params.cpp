#include "models/drive/electric_drive_params.hpp"

#include "models/drive/drive_validation.hpp"

namespace hil::models {

namespace {
constexpr double kAmpHour = 3600.0;  // [C]
constexpr int kLeadAcidCells = 24;   // 48 V / 2 V per cell (RAVON §3.6: "48V lead-acid")
}  // namespace

DriveUnitParams ravon_drive_unit() {
  DriveUnitParams u;
  // Motor: the seed names the Huebner HAC 71.11.6 but gives no data. Assumed DC equivalent
  // (docs/models.md "RAVON parameters"): k such that 2000 rev/min needs 37.7 V of a 48 V bus.
  u.motor = {.resistance = 0.06,
             .inductance = 2.5e-4,
             .torque_constant = 0.18,
             .rotor_inertia = 4.0e-4,
             .viscous_friction = 1.0e-4,
             .coulomb_friction = 0.12,
             .coulomb_speed = 2.0};
  u.gear = {.ratio = 59.0, .efficiency = 0.9};  // RAVON §3.4: Cyclo Drive 6000, 1:59
  u.controller = CascadeControllerParams{};     // tuned defaults (drive_controller.hpp)
  return u;
}

BatteryDatasheet ravon_battery_datasheet() {
  constexpr double cells = kLeadAcidCells;
  // Per-cell points of a 0.2 C lead-acid discharge (assumed, docs/models.md "Battery"):
  // 2.15 V full, 2.07 V after 3 % (exponential zone), 2.00 V after 70 A·h, cut-off 1.75 V.
  return {.chemistry = BatteryChemistry::lead_acid,
          .full_voltage = cells * 2.15,
          .exp_zone_voltage = cells * 2.07,
          .exp_zone_charge = 3.0 * kAmpHour,
          .nominal_voltage = cells * 2.00,
          .nominal_charge = 70.0 * kAmpHour,
          .nominal_current = 20.0,  // 0.2 C of 100 A·h
          .capacity = 105.0 * kAmpHour,
          .internal_resistance = 0.02,
          .response_time = 30.0,  // MATLAB Battery block default
          .cutoff_voltage = cells * 1.75};
}

ElectricDriveParams ravon_drive_params() {
  ElectricDriveParams p;
  p.units.fill(ravon_drive_unit());
  p.motor_count = 4;                   // RAVON §3.4: individual 4-wheel drive
  p.converter = {.efficiency = 0.97};  // assumed MOSFET bridge efficiency
  p.battery = battery_params_from_datasheet(ravon_battery_datasheet());
  p.derating = {.start_voltage = kLeadAcidCells * 1.85};  // 44.4 V, assumed
  p.controller_decimation = 1;
  validate_electric_drive(p);
  return p;
}

}  // namespace hil::models
