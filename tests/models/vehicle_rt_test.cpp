// The vehicle on the RT path (DESIGN.md §5, issue 3): after warm-up, Vehicle::step() makes no
// heap allocation and takes no minor page fault, driving, steering, braking and with sensor
// noise on, over a terrain with bumps. Links the allocation counter: a binary of its own.

#include <gtest/gtest.h>

#include "models/terrain_bumps.hpp"
#include "models/vehicle.hpp"
#include "models/vehicle_channels.hpp"
#include "models/vehicle_presets.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::models {
namespace {

TEST(VehicleRt, StepNeitherAllocatesNorFaultsAfterWarmUp) {
  const BumpsTerrain bumps({.amplitude_x = 0.03,
                            .wavelength_x = 4.0,
                            .amplitude_y = 0.02,
                            .wavelength_y = 3.0,
                            .surface = {.type = Surface::sand, .cone_index_pa = 500e3}});
  VehicleParams p = ravon_params();
  p.sensors.imu.accel_noise = 0.02;
  p.sensors.imu.gyro_bias_walk = 1e-4;
  p.sensors.gnss.horizontal_noise = 0.3;
  Vehicle vehicle(p, bumps);
  rt::ChannelTable table;
  const VehicleChannels channels(table, p);
  table.freeze();
  VehicleInputs in;
  in.drive_torque = {60.0, 60.0, 60.0, 60.0};
  in.steering_command = {0.2, -0.2};
  in.wind_speed = 8.0;
  for (int k = 0; k < 4000; ++k) vehicle.step(in);  // warm-up: 1 s
  table.publish(0);

  const rt::ChannelId brake = table.resolve("vehicle.brake.command");
  const rt::ChannelId park = table.resolve("vehicle.brake.park");
  const rt::ChannelId torque = table.resolve("vehicle.wheel.fl.drive_torque");
  const rt::ChannelId steer = table.resolve("vehicle.steering.front.command");
  table.set(torque, 60.0);
  table.set(steer, 0.2);

  const std::uint64_t allocations = hil::testing::allocation_count();
  const long faults = hil::testing::thread_minor_faults();
  for (int k = 0; k < 40'000; ++k) {  // 10 s: accelerating, turning, braking, parking
    table.set(brake, k > 20'000 ? 0.5 : 0.0);
    table.set(park, k > 30'000 ? 1.0 : 0.0);
    channels.read(table, in);
    vehicle.step(in);
    channels.write(vehicle.outputs(), table);
    table.publish(k);
  }
  EXPECT_EQ(hil::testing::allocation_count() - allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(hil::testing::thread_minor_faults() - faults, 0);
  }
  EXPECT_GT(vehicle.outputs().gnss.count, 100);  // the sensors did run
  EXPECT_TRUE(vehicle.state().allFinite());
}

}  // namespace
}  // namespace hil::models
