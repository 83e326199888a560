// The drives in the vehicle: RAVON's electric drive follows the
// reference wheel speeds the ECU sends and holds the vehicle at rest; the HMMWV's diesel and
// automatic gearbox accelerate, shift, brake and reverse.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

void run(Vehicle& v, const VehicleInputs& in, double seconds) {
  const auto steps = static_cast<long>(std::lround(seconds / v.params().dt));
  for (long k = 0; k < steps; ++k) v.step(in);
}

/// Every wheel's reference speed for a vehicle speed v [m/s] on RAVON's static rolling radius.
VehicleInputs wheel_speeds_for(const Vehicle& vehicle, double v) {
  VehicleInputs in;
  const TireParams& tire = vehicle.model().tire(0);
  const double r = 0.5 * tire.diameter - 750.0 * 9.81 / 4.0 / tire.vertical_stiffness;
  in.speed_ref.fill(v / r);
  return in;
}

TEST(VehicleElectricDrive, FollowsTheEcusWheelSpeedsAndStops) {
  const FlatTerrain flat({});
  Vehicle vehicle(ravon_params(), flat);
  run(vehicle, wheel_speeds_for(vehicle, 1.0), 5.0);
  const VehicleOutputs& o = vehicle.outputs();
  EXPECT_NEAR(o.velocity_body.x(), 1.0, 0.02);  // the closed-loop target: within 2 %
  EXPECT_GT(o.electric.battery.current, 0.0);   // rolling resistance costs power
  EXPECT_LT(o.electric.battery.soc, 0.9);
  EXPECT_NEAR(o.electric.battery.voltage, 48.0, 4.0);
  EXPECT_GT(o.electric.motors[0].current, 0.0);
  EXPECT_NEAR(o.electric.motors[0].rotor_speed, 59.0 * o.wheels[0].speed, 1e-9);  // 1:59

  run(vehicle, wheel_speeds_for(vehicle, 0.0), 5.0);
  EXPECT_LT(std::abs(vehicle.outputs().velocity_body.x()), 0.01);
}

TEST(VehicleElectricDrive, ADecimatedControllerSamplesOnItsTicksAndHoldsItsDutiesBetween) {
  const FlatTerrain flat({});
  VehicleParams params = ravon_params();
  params.drive.electric.controller_decimation = 4;
  Vehicle vehicle(params, flat);
  EXPECT_EQ(vehicle.controller_decimation(), 4U);
  const VehicleInputs in = wheel_speeds_for(vehicle, 1.0);
  double duty = vehicle.outputs().electric.motors[0].duty;
  for (std::int64_t k = 0; k < 40; ++k) {
    EXPECT_EQ(vehicle.controller_due(k), k % 4 == 0) << k;
    vehicle.step(in);
    const double now = vehicle.outputs().electric.motors[0].duty;
    if (k % 4 != 0) {
      EXPECT_EQ(now, duty) << "held at tick " << k;  // zero-order hold
    }
    if (k == 0) {
      EXPECT_GT(now, duty);  // the first sample drives towards 1 m/s
    }
    duty = now;
  }
  run(vehicle, in, 5.0);
  EXPECT_NEAR(vehicle.outputs().velocity_body.x(), 1.0, 0.02);  // and still follows
}

TEST(VehicleElectricDrive, ATickOfThreeCallsIsTheSameBitsAsStep) {
  // What the rig's stages do (take_inputs, control when due, advance) is step()
  const FlatTerrain flat({});
  VehicleParams params = ravon_params();
  params.drive.electric.controller_decimation = 3;
  Vehicle whole(params, flat), parts(params, flat);
  VehicleInputs in = wheel_speeds_for(whole, 1.0);
  for (std::int64_t k = 0; k < 4000; ++k) {
    in.steering_command[0] = 0.1 * std::sin(1e-3 * static_cast<double>(k));
    whole.step(in);
    parts.take_inputs(in);
    if (parts.controller_due(k)) parts.control();
    parts.advance(k);
  }
  EXPECT_EQ(parts.outputs().tick, 4000);
  for (int i = 0; i < whole.state().size(); ++i) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(whole.state()[i]),
              std::bit_cast<std::uint64_t>(parts.state()[i]))
        << i;
  }
}

TEST(VehicleElectricDrive, SpeedControlHoldsTheVehicleOnAGrade) {
  const InclineTerrain hill({.grade_percent = 10.0});
  Vehicle vehicle(ravon_params(), hill);
  run(vehicle, wheel_speeds_for(vehicle, 0.0), 3.0);
  const Eigen::Vector3d held = vehicle.outputs().position;
  run(vehicle, wheel_speeds_for(vehicle, 0.0), 10.0);
  EXPECT_LT((vehicle.outputs().position - held).norm(), 0.01);
  EXPECT_GT(vehicle.outputs().electric.motors[0].current, 0.1);  // holding against the slope
}

TEST(VehicleCombustionDrive, AcceleratesShiftsBrakesAndReverses) {
  const FlatTerrain flat({});
  Vehicle vehicle(hmmwv_params(), flat);
  VehicleInputs in;
  in.throttle = 0.7;
  run(vehicle, in, 20.0);
  EXPECT_GT(vehicle.outputs().velocity_body.x(), 10.0);
  EXPECT_GE(vehicle.outputs().powertrain.gear, 2);  // the automatic has shifted up
  EXPECT_GT(vehicle.outputs().powertrain.engine_speed, 100.0);

  in.throttle = 0.0;
  in.brake = 1.0;
  run(vehicle, in, 8.0);
  EXPECT_LT(std::abs(vehicle.outputs().velocity_body.x()), 0.05);

  in.gear_request = -1.0;  // R
  run(vehicle, in, 1.0);
  EXPECT_EQ(vehicle.outputs().powertrain.gear, -1);
  in.brake = 0.0;
  in.throttle = 0.4;
  run(vehicle, in, 5.0);
  EXPECT_LT(vehicle.outputs().velocity_body.x(), -1.0);
}

}  // namespace
}  // namespace hil::models
