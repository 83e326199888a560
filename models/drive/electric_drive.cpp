#include "models/drive/electric_drive.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

namespace {
using L = ElectricDriveLayout;
}  // namespace

ElectricDriveState electric_drive_initial_state(const ElectricDriveParams& p, double soc) noexcept {
  ElectricDriveState x = ElectricDriveState::Zero();
  const BatteryState b = battery_initial_state(p.battery, soc);
  x[L::kExtractedCharge] = b.extracted_charge;
  x[L::kFilteredCurrent] = b.filtered_current;
  x[L::kExpZone] = b.exp_zone;
  return x;
}

BatteryState battery_state_of(const ElectricDriveState& x) noexcept {
  return {.extracted_charge = x[L::kExtractedCharge],
          .filtered_current = x[L::kFilteredCurrent],
          .exp_zone = x[L::kExpZone]};
}

double electric_drive_rest_voltage(const ElectricDriveParams& p, double soc) noexcept {
  // Tremblay–Dessaint V = E − R·i at i = 0 (docs/models.md "Battery"; RAVON §3.6, Fig. 9)
  return std::max(0.0,
                  battery_terminal_voltage(p.battery, battery_initial_state(p.battery, soc), 0.0));
}

DcBus dc_bus(const ElectricDriveParams& p, const ElectricDriveState& x, const WheelValues& duty,
             double external_voltage) noexcept {
  const double eta = p.converter.efficiency;
  // Averaged bridge j takes duty·i from the bus per volt (u = duty·V, RAVON §3.7); its DC side
  // carries that /η_c when motoring and ·η_c when regenerating (i_b = Σ duty·i/η_c).
  double motor_side = 0.0;  // Σ duty·i  (power per volt at the motor terminals)
  double dc_side = 0.0;     // Σ duty·i·(1/η_c or η_c)
  for (std::size_t j = 0; j < p.motor_count; ++j) {
    const double per_volt = duty[j] * x[L::current(j)];
    motor_side += per_volt;
    dc_side += per_volt >= 0.0 ? per_volt / eta : per_volt * eta;
  }
  DcBus bus;
  bus.battery_current = std::max(dc_side, -p.converter.max_regen_current);
  if (p.external_battery) {
    // RAVON §3.6: the co-simulated battery returns "the actual battery voltage" for i_b; held
    // over the step. std::max(0, NaN) is 0, so a value the caller did not sanitise stops here.
    bus.voltage = std::max(0.0, external_voltage);
  } else {
    // Tremblay–Dessaint V = E − R·i_b (RAVON §3.6, Fig. 9; docs/models.md "Battery")
    const BatteryState b = battery_state_of(x);
    bus.voltage = std::max(0.0, battery_terminal_voltage(p.battery, b, bus.battery_current));
  }
  bus.converter_loss = (dc_side - motor_side) * bus.voltage;
  bus.chopper_power = (bus.battery_current - dc_side) * bus.voltage;
  return bus;
}

double motoring_limit_fraction(const ElectricDriveParams& p, double V) noexcept {
  const double cut = p.battery.cutoff_voltage;
  const double start = p.derating.start_voltage;
  if (start <= cut) return V > cut ? 1.0 : 0.0;
  return std::clamp((V - cut) / (start - cut), 0.0, 1.0);  // linear derating start → cut-off
}

ElectricDriveRates electric_drive_derivative(const ElectricDriveParams& p,
                                             const ElectricDriveState& x, const WheelValues& duty,
                                             const DriveWheelInputs& wheels,
                                             double external_voltage) noexcept {
  ElectricDriveRates r;
  r.bus = dc_bus(p, x, duty, external_voltage);
  for (std::size_t j = 0; j < p.motor_count; ++j) {
    const DriveUnitParams& unit = p.units[j];
    const double i = x[L::current(j)];
    const double omega_m = unit.gear.ratio * wheels.omega[j];  // rigid gear: ω_m = N·ω
    const double u = duty[j] * r.bus.voltage;                  // averaged PWM: u = duty·V
    r.x_dot[L::current(j)] = motor_current_rate(unit.motor, u, i, omega_m);
    const GearedDrive g =
        geared_drive(unit.motor, unit.gear, motor_shaft_torque(unit.motor, i, omega_m),
                     wheels.omega[j], wheels.other_torque[j], wheels.inertia[j]);
    r.drive_torque[j] = g.drive_torque;
    r.reflected_inertia[j] = g.reflected_inertia;
  }
  const BatteryRates b = battery_rates(p.battery, battery_state_of(x), r.bus.battery_current);
  r.x_dot[L::kExtractedCharge] = b.extracted_charge;
  r.x_dot[L::kFilteredCurrent] = b.filtered_current;
  r.x_dot[L::kExpZone] = b.exp_zone;
  return r;
}

WheelValues electric_drive_controller_sample(const ElectricDriveParams& p,
                                             ElectricDriveControllerState& s,
                                             const ElectricDriveState& x,
                                             const WheelValues& wheel_omega,
                                             const WheelValues& wheel_speed_ref, double dt,
                                             double external_voltage) noexcept {
  const std::int64_t n = std::max(p.controller_decimation, 1);
  const double T = static_cast<double>(n) * dt;
  // The bus voltage the controllers sample now, under the duties held so far.
  const double V = dc_bus(p, x, s.duty, external_voltage).voltage;
  const double fraction = motoring_limit_fraction(p, V);
  for (std::size_t j = 0; j < p.motor_count; ++j) {
    const double N = p.units[j].gear.ratio;
    CascadeControllerState& c = s.motors[j];
    const double ref = wheel_speed_ref[j];
    const CascadeMeasurement m{.speed_ref = std::isfinite(ref) ? N * ref : c.speed_ref,
                               .speed = N * wheel_omega[j],
                               .current = x[L::current(j)],
                               .bus_voltage = V,
                               .motoring_limit_fraction = fraction};
    s.duty[j] = cascade_controller_step(p.units[j].controller, c, m, T);
  }
  return s.duty;
}

ElectricDriveOutputs electric_drive_outputs(const ElectricDriveParams& p,
                                            const ElectricDriveControllerState& s,
                                            const ElectricDriveState& x,
                                            const WheelValues& wheel_omega,
                                            double external_voltage) noexcept {
  ElectricDriveOutputs out;
  const DcBus bus = dc_bus(p, x, s.duty, external_voltage);
  for (std::size_t j = 0; j < p.motor_count; ++j) {
    const DriveUnitParams& unit = p.units[j];
    const CascadeControllerState& c = s.motors[j];
    MotorOutputs& m = out.motors[j];
    m.current = x[L::current(j)];
    m.rotor_speed = unit.gear.ratio * wheel_omega[j];
    m.duty = s.duty[j];
    m.voltage = m.duty * bus.voltage;
    m.electrical_power = m.voltage * m.current;
    m.shaft_torque = motor_shaft_torque(unit.motor, m.current, m.rotor_speed);
    m.speed_ref = c.speed_ref;
    m.current_ref = c.current_ref;
    m.voltage_ref = c.voltage_ref;
    m.speed_integrator = c.speed.integrator;
    m.current_integrator = c.current.integrator;
  }
  const BatteryState b = battery_state_of(x);
  out.battery = {.voltage = bus.voltage,
                 .current = bus.battery_current,
                 .soc = battery_soc(p.battery, b.extracted_charge),
                 .extracted_charge = b.extracted_charge,
                 .filtered_current = b.filtered_current,
                 .source_voltage = battery_source_voltage(p.battery, b),
                 .motoring_limit_fraction = motoring_limit_fraction(p, bus.voltage)};
  out.converter_loss = bus.converter_loss;
  out.chopper_power = bus.chopper_power;
  return out;
}

}  // namespace hil::models
