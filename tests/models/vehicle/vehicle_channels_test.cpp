// The vehicle's channels: names of the DESIGN.md §1 convention, inputs read into
// VehicleInputs, outputs written from VehicleOutputs.

#include "models/vehicle/vehicle_channels.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

TEST(VehicleChannels, WheelAndAxleNamesFollowTheAxleCount) {
  EXPECT_EQ(VehicleChannels::wheel_name(0, 2), "fl");
  EXPECT_EQ(VehicleChannels::wheel_name(3, 2), "rr");
  EXPECT_EQ(VehicleChannels::wheel_name(3, 3), "mr");
  EXPECT_EQ(VehicleChannels::wheel_name(4, 3), "rl");
  EXPECT_EQ(VehicleChannels::wheel_name(7, 4), "a4r");
  EXPECT_EQ(VehicleChannels::axle_name(1, 2), "rear");
  EXPECT_EQ(VehicleChannels::axle_name(2, 4), "a3");
}

TEST(VehicleChannels, InputChannelsReachTheVehicleInputs) {
  rt::ChannelTable table;
  const VehicleChannels channels(table, ravon_params());
  table.freeze();
  table.set(table.resolve("vehicle.steering.rear.command"), -0.2);
  table.set(table.resolve("vehicle.wheel.fr.speed_ref"), 12.5);
  table.set(table.resolve("env.road.friction.rl"), 0.3);
  table.set(table.resolve("env.wind.direction"), 1.5);
  table.set(table.resolve("env.disturbance.force.y"), 250.0);
  VehicleInputs in;
  channels.read(table, in);
  EXPECT_EQ(in.steering_command[1], -0.2);
  EXPECT_EQ(in.speed_ref[1], 12.5);
  EXPECT_EQ(in.friction_scale[2], 0.3);
  EXPECT_EQ(in.friction_scale[0], 1.0);  // initial value of an untouched friction channel
  EXPECT_EQ(in.road_normal, Eigen::Vector3d::UnitZ());
  EXPECT_EQ(in.wind_direction, 1.5);
  EXPECT_EQ(in.external_force.y(), 250.0);
  // RAVON's wheels are driven by motors: the torque is an output, the battery reports
  EXPECT_EQ(table.spec(table.resolve("vehicle.wheel.fr.drive_torque")).direction,
            rt::Direction::output);
  EXPECT_TRUE(table.find("vehicle.wheel.rl.motor.current").has_value());
  EXPECT_TRUE(table.find("vehicle.battery.soc").has_value());
  EXPECT_FALSE(table.find("vehicle.powertrain.throttle").has_value());
}

TEST(VehicleChannels, EachDriveHasItsOwnCommands) {
  VehicleParams p = hmmwv_params();
  rt::ChannelTable combustion;
  const VehicleChannels hmmwv(combustion, p);
  combustion.freeze();
  VehicleInputs in;
  combustion.set(combustion.resolve("vehicle.powertrain.throttle"), 0.3);
  hmmwv.read(combustion, in);
  EXPECT_EQ(in.throttle, 0.3);
  EXPECT_TRUE(std::isnan(in.gear_request));  // no request until the ECU sends one
  EXPECT_FALSE(combustion.find("vehicle.wheel.fl.speed_ref").has_value());

  p.drive.kind = DriveKind::torque;  // co-simulation: torques straight in
  rt::ChannelTable torque;
  const VehicleChannels direct(torque, p);
  torque.freeze();
  torque.set(torque.resolve("vehicle.wheel.rr.drive_torque"), -40.0);
  direct.read(torque, in);
  EXPECT_EQ(in.drive_torque[3], -40.0);
  EXPECT_EQ(torque.spec(torque.resolve("vehicle.wheel.rr.drive_torque")).direction,
            rt::Direction::input);
}

TEST(VehicleChannels, OutputsReachTheirChannels) {
  rt::ChannelTable table;
  const FlatTerrain flat({});
  const VehicleParams p = hmmwv_params();
  const VehicleChannels channels(table, p);
  table.freeze();
  Vehicle vehicle(p, flat);
  vehicle.reset(0.0, 0.0, 0.5, 4.0);
  VehicleInputs in;
  in.steering_command[0] = 0.1;
  for (int k = 0; k < 400; ++k) vehicle.step(in);
  EXPECT_EQ(channels.write(vehicle.outputs(), table), 0U);
  const VehicleOutputs& o = vehicle.outputs();
  EXPECT_EQ(table.get(table.resolve("vehicle.wheel.rl.speed")), o.wheels[2].speed);
  EXPECT_EQ(table.get(table.resolve("vehicle.wheel.fr.lateral_force")), o.wheels[1].lateral_force);
  EXPECT_EQ(table.get(table.resolve("vehicle.wheel.rr.brake_torque")), o.wheels[3].brake_torque);
  EXPECT_EQ(table.get(table.resolve("vehicle.body.yaw")), o.yaw);
  EXPECT_EQ(table.get(table.resolve("vehicle.body.position.y")), o.position.y());
  EXPECT_EQ(table.get(table.resolve("vehicle.imu.gyro.z")), o.imu.angular_rate.z());
  EXPECT_EQ(table.get(table.resolve("vehicle.gnss.latitude")), o.gnss.position.latitude_deg);
  EXPECT_EQ(table.get(table.resolve("vehicle.steering.front.angle")), o.steering_angle[0]);
  EXPECT_GT(o.steering_angle[0], 0.05);
  // The HMMWV's rear axle does not steer: no channel for it
  EXPECT_FALSE(table.find("vehicle.steering.rear.command").has_value());
  EXPECT_EQ(table.get(table.resolve("vehicle.powertrain.engine_speed")), o.powertrain.engine_speed);
  EXPECT_EQ(table.get(table.resolve("vehicle.body.speed")),
            std::hypot(o.velocity_body.x(), o.velocity_body.y()));
  EXPECT_GT(table.get(table.resolve("vehicle.body.speed")), 0.1);
  EXPECT_EQ(table.get(table.resolve("vehicle.powertrain.gear")),
            static_cast<double>(o.powertrain.gear));  // computed, not a field
  // per wheel 13 + drive torque, 5 vectors, 20 scalars, 1 steering angle, 9 powertrain
  EXPECT_EQ(channels.output_count(), 4 * 14 + 15 + 20 + 1 + 9);
}

// The electric drive's outputs: per-motor fields two tables deep, the battery's, a flag
TEST(VehicleChannels, ElectricDriveOutputsReachTheirChannels) {
  rt::ChannelTable table;
  const FlatTerrain flat({});
  const VehicleParams p = ravon_params();
  const VehicleChannels channels(table, p);
  table.freeze();
  Vehicle vehicle(p, flat);
  vehicle.reset(0.0, 0.0, 0.0, 1.0);
  VehicleInputs in;
  in.speed_ref.fill(5.0);
  for (int k = 0; k < 400; ++k) vehicle.step(in);
  EXPECT_EQ(channels.write(vehicle.outputs(), table), 0U);
  const VehicleOutputs& o = vehicle.outputs();
  EXPECT_EQ(table.get(table.resolve("vehicle.wheel.rl.motor.current")),
            o.electric.motors[2].current);
  EXPECT_EQ(table.get(table.resolve("vehicle.wheel.fr.motor.current_integrator")),
            o.electric.motors[1].current_integrator);
  EXPECT_NE(o.electric.motors[2].current, o.electric.motors[1].current_integrator);
  EXPECT_EQ(table.get(table.resolve("vehicle.battery.soc")), o.electric.battery.soc);
  EXPECT_EQ(table.get(table.resolve("vehicle.drive.chopper_power")), o.electric.chopper_power);
  EXPECT_EQ(table.get(table.resolve("vehicle.safe_state")), 0.0);
}

}  // namespace
}  // namespace hil::models
