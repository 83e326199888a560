// RAVON with an external battery (RAVON §3.6: the battery is a co-simulator on the bus): the
// input vehicle.battery.external_voltage is the DC bus voltage from the step that reads it on
// (zero-order hold), a non-finite value is held and counted, and nothing non-finite leaves.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

VehicleParams external_ravon() {
  VehicleParams p = ravon_params();
  p.drive.electric.external_battery = true;
  return p;
}

/// 1 m/s on every wheel of RAVON (static rolling radius), the given bus voltage.
VehicleInputs driving(const Vehicle& vehicle, double voltage) {
  VehicleInputs in;
  const TireParams& tire = vehicle.model().tire(0);
  const double r = 0.5 * tire.diameter - 750.0 * 9.81 / 4.0 / tire.vertical_stiffness;
  in.speed_ref.fill(1.0 / r);
  in.external_battery_voltage = voltage;
  return in;
}

void run(Vehicle& v, const VehicleInputs& in, double seconds) {
  const auto steps = std::lround(seconds / v.params().dt);
  for (long k = 0; k < steps; ++k) v.step(in);
}

TEST(VehicleExternalBattery, StartsAtTheBuiltInRestVoltageAndDrives) {
  const FlatTerrain flat({});
  const VehicleParams p = external_ravon();
  Vehicle vehicle(p, flat);
  const double rest = electric_drive_rest_voltage(p.drive.electric, p.drive.initial_soc);
  EXPECT_EQ(vehicle.outputs().electric.battery.voltage, rest);
  run(vehicle, driving(vehicle, 48.0), 5.0);
  const VehicleOutputs& o = vehicle.outputs();
  EXPECT_NEAR(o.velocity_body.x(), 1.0, 0.02);
  EXPECT_EQ(o.electric.battery.voltage, 48.0);
  EXPECT_GT(o.electric.battery.current, 0.0);
  EXPECT_LT(o.electric.battery.soc, p.drive.initial_soc);  // the charge drawn
  EXPECT_EQ(o.rejected_inputs, 0);
}

TEST(VehicleExternalBattery, AVoltageStepReachesTheOutputsAtTheStepThatReadsIt) {
  const FlatTerrain flat({});
  Vehicle vehicle(external_ravon(), flat);
  run(vehicle, driving(vehicle, 48.0), 2.0);
  ASSERT_EQ(vehicle.outputs().electric.battery.voltage, 48.0);

  vehicle.step(driving(vehicle, 40.0));  // zero-order hold: 40 V over this whole step
  const ElectricDriveOutputs& e = vehicle.outputs().electric;
  EXPECT_EQ(e.battery.voltage, 40.0);
  for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(e.motors[j].voltage, e.motors[j].duty * 40.0);

  vehicle.step(driving(vehicle, -5.0));  // a negative voltage is a dead bus, not an error
  EXPECT_EQ(vehicle.outputs().electric.battery.voltage, 0.0);
  EXPECT_EQ(vehicle.outputs().rejected_inputs, 0);
}

TEST(VehicleExternalBattery, NonFiniteVoltageIsHeldCountedAndReachesNoOutput) {
  const FlatTerrain flat({});
  const VehicleParams p = external_ravon();
  Vehicle vehicle(p, flat);
  rt::ChannelTable table;
  const VehicleChannels channels(table, p);
  table.freeze();
  run(vehicle, driving(vehicle, 46.0), 1.0);

  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    const std::int64_t rejected = vehicle.outputs().rejected_inputs;
    vehicle.step(driving(vehicle, bad));
    const VehicleOutputs& o = vehicle.outputs();
    EXPECT_EQ(o.rejected_inputs, rejected + 1);
    EXPECT_EQ(o.electric.battery.voltage, 46.0);  // the last finite value, held
    EXPECT_FALSE(o.safe_state);
    EXPECT_EQ(channels.write(o, table), 0U);  // every output channel finite
  }
  // A co-simulator that sends only NaN: the vehicle keeps driving on the last voltage
  const std::int64_t rejected = vehicle.outputs().rejected_inputs;
  run(vehicle, driving(vehicle, std::nan("")), 2.0);
  EXPECT_EQ(vehicle.outputs().rejected_inputs, rejected + 8000);  // one per 250 µs step
  EXPECT_EQ(vehicle.outputs().electric.battery.voltage, 46.0);
  EXPECT_FALSE(vehicle.outputs().safe_state);
  EXPECT_EQ(channels.write(vehicle.outputs(), table), 0U);
  EXPECT_NEAR(vehicle.outputs().velocity_body.x(), 1.0, 0.02);
}

TEST(VehicleExternalBattery, TheChannelExistsOnlyWithAnExternalBattery) {
  const VehicleParams p = external_ravon();
  rt::ChannelTable table;
  const VehicleChannels channels(table, p);
  table.freeze();
  const rt::ChannelId id = table.resolve("vehicle.battery.external_voltage");
  const rt::ChannelSpec& spec = table.spec(id);
  EXPECT_EQ(spec.direction, rt::Direction::input);
  EXPECT_EQ(spec.unit, "V");
  EXPECT_EQ(spec.initial, electric_drive_rest_voltage(p.drive.electric, p.drive.initial_soc));
  table.set(id, 45.5);
  VehicleInputs in;
  channels.read(table, in);
  EXPECT_EQ(in.external_battery_voltage, 45.5);

  rt::ChannelTable built_in;
  const VehicleChannels ravon(built_in, ravon_params());
  EXPECT_FALSE(built_in.find("vehicle.battery.external_voltage").has_value());
  EXPECT_EQ(channels.input_count(), ravon.input_count() + 1);
  EXPECT_EQ(channels.output_count(), ravon.output_count());
}

TEST(VehicleExternalBattery, TheBuiltInBatteryIgnoresTheInput) {
  const FlatTerrain flat({});
  Vehicle a(ravon_params(), flat);
  Vehicle b(ravon_params(), flat);
  VehicleInputs in = driving(a, 48.0);
  VehicleInputs nan = in;
  nan.external_battery_voltage = std::nan("");
  for (int k = 0; k < 4000; ++k) {
    a.step(in);
    b.step(nan);
  }
  EXPECT_EQ(b.outputs().rejected_inputs, 0);
  EXPECT_EQ(a.outputs().electric.battery.voltage, b.outputs().electric.battery.voltage);
  EXPECT_EQ(a.outputs().position, b.outputs().position);
  EXPECT_LT(a.outputs().electric.battery.voltage, 52.0);  // E − R·i_b, not the input
  EXPECT_NE(a.outputs().electric.battery.voltage, 48.0);
}

}  // namespace
}  // namespace hil::models
