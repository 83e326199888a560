// The electric drive on an external battery (RAVON §3.6: a co-simulated battery returns "the
// actual battery voltage" for the current the drive draws): the bus is then an ideal source at
// the voltage received, held over the step. Lifted RAVON wheels (drive_rig.hpp), 250 µs, RK4.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "models/drive/electric_drive_params.hpp"
#include "tests/models/drive/drive_rig.hpp"

namespace hil::models {
namespace {

using testing::DriveRig;
using L = ElectricDriveLayout;

constexpr double kDt = 250e-6;

/// Prints a measured figure (the closing notes quote them) and records it in the XML.
void report(const std::string& what, double value) {
  std::printf("[ measured ] %s = %.10g\n", what.c_str(), value);
  ::testing::Test::RecordProperty(what, std::to_string(value));
}

/// RAVON's drive on an external battery; τ_c = 0 so that the steady state has a closed form.
ElectricDriveParams external_drive() {
  ElectricDriveParams p = ravon_drive_params();
  p.external_battery = true;
  for (DriveUnitParams& u : p.units) u.motor.coulomb_friction = 0.0;
  return p;
}

void hold(DriveRig& rig, double seconds) {
  const auto ticks = std::lround(seconds / kDt);
  for (long k = 0; k < ticks; ++k) rig.step_held(kDt);
}

TEST(ExternalBattery, FixedDutyRunsTheMotorsAsFromAnIdealSource) {
  DriveRig rig(external_drive(), 0.9);
  constexpr double V = 48.0;  // the co-simulator's voltage
  constexpr double d = 0.6;
  rig.external_voltage = V;
  for (std::size_t j = 0; j < rig.drive.motor_count; ++j) rig.controller.duty[j] = d;
  double lowest = V;
  double highest = 0.0;
  double peak_current = 0.0;
  for (int k = 0; k < 2000; ++k) {  // 0.5 s: the transient draws up to the stall current
    rig.step_held(kDt);
    const ElectricDriveOutputs o = rig.outputs();
    lowest = std::min(lowest, o.battery.voltage);
    highest = std::max(highest, o.battery.voltage);
    peak_current = std::max(peak_current, o.battery.current);
  }
  // An ideal source: the bus voltage is V whatever the current (no E − R·i_b sag)
  EXPECT_EQ(lowest, V);
  EXPECT_EQ(highest, V);
  EXPECT_GT(peak_current, 50.0);

  // Steady state of models/drive/dc_motor.hpp with u = d·V (averaged PWM, RAVON §3.7):
  //   L·di/dt = 0 = u − R·i − k·ω_m;  wheel: 0 = η·N·(k·i − b·ω_m) − β·ω_m/N
  //   ⇒ k·i = b_eff·ω_m with b_eff = b + β/(η·N²), ω_m = k·u/(k² + R·b_eff)
  const DriveUnitParams& u = rig.drive.units[0];
  const double k = u.motor.torque_constant;
  const double R = u.motor.resistance;
  const double N = u.gear.ratio;
  const double b_eff = u.motor.viscous_friction + rig.bearing_damping / (u.gear.efficiency * N * N);
  const double omega_m = k * d * V / (k * k + R * b_eff);
  const double i = b_eff * omega_m / k;
  const ElectricDriveOutputs o = rig.outputs();
  report("ideal source: analytic rotor speed k·d·V/(k²+R·b_eff) [rad/s]", omega_m);
  report("ideal source: simulated rotor speed [rad/s]", o.motors[0].rotor_speed);
  report("ideal source: rotor speed relative error", o.motors[0].rotor_speed / omega_m - 1.0);
  report("ideal source: no-load bound d·V/k [rad/s]", d * V / k);
  report("ideal source: analytic current b_eff·ω_m/k [A]", i);
  report("ideal source: simulated current [A]", o.motors[0].current);
  for (std::size_t j = 0; j < rig.drive.motor_count; ++j) {
    EXPECT_NEAR(o.motors[j].rotor_speed, omega_m, 1e-9 * omega_m);
    EXPECT_NEAR(o.motors[j].current, i, 1e-7 * i);
    EXPECT_EQ(o.motors[j].voltage, d * V);
  }
  // i_b = Σ duty·i/η_c (motoring), as with the built-in battery
  const double i_b = 4.0 * d * i / rig.drive.converter.efficiency;
  EXPECT_NEAR(o.battery.current, i_b, 1e-7 * i_b);

  // The built-in states integrate i_b: the extracted charge is the charge drawn
  const double it0 = o.battery.extracted_charge;
  hold(rig, 1.0);
  const ElectricDriveOutputs later = rig.outputs();
  EXPECT_NEAR(later.battery.extracted_charge - it0, i_b * 1.0, 1e-6 * i_b);
  EXPECT_DOUBLE_EQ(later.battery.soc,
                   1.0 - later.battery.extracted_charge / rig.drive.battery.capacity);
  EXPECT_EQ(later.battery.voltage, V);
}

TEST(ExternalBattery, TheControllersSeeTheExternalVoltage) {
  // Same speed on a lower voltage needs a proportionally larger duty: duty·V = R·i + k·ω_m
  const auto steady = [](double V) {
    DriveRig rig(external_drive(), 0.9);
    rig.drive.motor_count = 1;
    rig.external_voltage = V;
    WheelValues ref{};
    ref[0] = 0.5 * kRavonMaxRotorSpeed / 59.0;
    for (int k = 0; k < 12000; ++k) rig.tick(ref, kDt);  // 3 s
    return rig.outputs().motors[0];
  };
  const MotorOutputs at45 = steady(45.0);  // above RAVON's derating start (44.4 V)
  const MotorOutputs at50 = steady(50.0);
  const DcMotorParams m = ravon_drive_unit().motor;
  for (const auto& [V, o] : {std::pair{45.0, at45}, std::pair{50.0, at50}}) {
    const double u = m.resistance * o.current + m.torque_constant * o.rotor_speed;
    EXPECT_NEAR(o.duty * V, u, 1e-6 * u);
    EXPECT_NEAR(o.rotor_speed, 0.5 * kRavonMaxRotorSpeed, 1e-6 * kRavonMaxRotorSpeed);
  }
  report("duty at 45 V (50 % speed)", at45.duty);
  report("duty at 50 V (50 % speed)", at50.duty);
  EXPECT_NEAR(at45.duty * 45.0, at50.duty * 50.0, 1e-6);
}

TEST(ExternalBattery, LowExternalVoltageDeratesAndStopsMotoring) {
  const ElectricDriveParams p = external_drive();
  const double cut = p.battery.cutoff_voltage;    // 42 V
  const double start = p.derating.start_voltage;  // 44.4 V
  DriveRig rig(p, 0.9);
  rig.external_voltage = 0.5 * (cut + start);
  rig.tick({}, kDt);
  EXPECT_NEAR(rig.outputs().battery.motoring_limit_fraction, 0.5, 1e-12);

  DriveRig empty(p, 0.9);
  empty.external_voltage = cut - 1.0;  // below the cut-off: no motoring at all
  WheelValues full{};
  full.fill(kRavonMaxRotorSpeed / 59.0);
  for (int k = 0; k < 800; ++k) empty.tick(full, kDt);  // 0.2 s
  EXPECT_EQ(empty.outputs().battery.motoring_limit_fraction, 0.0);
  EXPECT_LE(empty.outputs().battery.current, 1e-9);
  EXPECT_LT(std::abs(DriveRig::omegas(empty.x)[0]), 1e-3);
}

TEST(ExternalBattery, NegativeOrNonFiniteVoltageIsAZeroBus) {
  const ElectricDriveParams p = external_drive();
  const ElectricDriveState x = electric_drive_initial_state(p, 0.9);
  WheelValues duty{};
  duty.fill(0.5);
  EXPECT_EQ(dc_bus(p, x, duty, -3.0).voltage, 0.0);
  EXPECT_EQ(dc_bus(p, x, duty, std::nan("")).voltage, 0.0);
  EXPECT_EQ(dc_bus(p, x, duty, 47.5).voltage, 47.5);
}

TEST(ExternalBattery, TheBuiltInBatteryIgnoresTheExternalVoltage) {
  const ElectricDriveParams p = ravon_drive_params();  // external_battery = false
  ElectricDriveState x = electric_drive_initial_state(p, 0.7);
  x[L::current(0)] = 30.0;
  x[L::current(2)] = -12.0;
  WheelValues duty{};
  duty.fill(0.4);
  const DcBus a = dc_bus(p, x, duty);
  const DcBus b = dc_bus(p, x, duty, 12.0);
  EXPECT_EQ(a.voltage, b.voltage);
  EXPECT_EQ(a.battery_current, b.battery_current);
  EXPECT_EQ(a.voltage, battery_terminal_voltage(p.battery, battery_state_of(x), a.battery_current));
}

TEST(ExternalBattery, RestVoltageIsTheBuiltInTerminalVoltageAtZeroCurrent) {
  const ElectricDriveParams p = ravon_drive_params();
  const double v = electric_drive_rest_voltage(p, 0.9);
  report("RAVON rest voltage at SOC 0.9 [V]", v);
  EXPECT_EQ(v, battery_terminal_voltage(p.battery, battery_initial_state(p.battery, 0.9), 0.0));
  EXPECT_GT(v, p.derating.start_voltage);  // a fresh run is not derated
}

}  // namespace
}  // namespace hil::models
