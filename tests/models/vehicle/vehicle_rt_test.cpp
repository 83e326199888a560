// The vehicle on the RT path (DESIGN.md §5, issues 3 and 4): after warm-up, reading the input
// channels, Vehicle::step() and writing the output channels make no heap allocation and take
// no minor page fault — RAVON with its electric drive, the HMMWV with its diesel, both
// driving, steering, braking and with sensor noise on, over a terrain with bumps. Links the
// allocation counter: a binary of its own.

#include <gtest/gtest.h>

#include <functional>

#include "models/terrain/terrain_bumps.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "models/vehicle/vehicle_presets.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::models {
namespace {

/// Warm-up 1 s, then 10 s measured; `command(table, k)` writes the input channels of tick k.
void expect_no_allocation_or_fault(VehicleParams p,
                                   const std::function<void(rt::ChannelTable&, int)>& command) {
  const BumpsTerrain bumps({.amplitude_x = 0.03,
                            .wavelength_x = 4.0,
                            .amplitude_y = 0.02,
                            .wavelength_y = 3.0,
                            .surface = {.type = Surface::sand, .cone_index_pa = 500e3}});
  p.sensors.imu.accel_noise = 0.02;
  p.sensors.imu.gyro_bias_walk = 1e-4;
  p.sensors.gnss.horizontal_noise = 0.3;
  Vehicle vehicle(p, bumps);
  rt::ChannelTable table;
  const VehicleChannels channels(table, p);
  table.freeze();
  VehicleInputs in;
  const auto tick = [&](int k) {
    command(table, k);
    channels.read(table, in);
    vehicle.step(in);
    (void)channels.write(vehicle.outputs(), table);
    table.publish(k);
  };
  for (int k = 0; k < 4000; ++k) tick(k);

  const std::uint64_t allocations = hil::testing::allocation_count();
  const long faults = hil::testing::thread_minor_faults();
  for (int k = 4000; k < 44'000; ++k) tick(k);
  EXPECT_EQ(hil::testing::allocation_count() - allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(hil::testing::thread_minor_faults() - faults, 0);
  }
  EXPECT_GT(vehicle.outputs().gnss.count, 100);  // the sensors did run
  EXPECT_TRUE(vehicle.state().allFinite());
}

TEST(VehicleRt, ElectricRavonNeitherAllocatesNorFaults) {
  expect_no_allocation_or_fault(ravon_params(), [](rt::ChannelTable& t, int k) {
    static const rt::ChannelId ref = t.resolve("vehicle.wheel.fl.speed_ref");
    static const rt::ChannelId steer = t.resolve("vehicle.steering.front.command");
    static const rt::ChannelId park = t.resolve("vehicle.brake.park");
    t.set(ref, k < 30'000 ? 4.0 : 0.0);
    t.set(steer, 0.2);
    t.set(park, k > 38'000 ? 1.0 : 0.0);
  });
}

TEST(VehicleRt, CombustionHmmwvNeitherAllocatesNorFaults) {
  expect_no_allocation_or_fault(hmmwv_params(), [](rt::ChannelTable& t, int k) {
    static const rt::ChannelId throttle = t.resolve("vehicle.powertrain.throttle");
    static const rt::ChannelId brake = t.resolve("vehicle.brake.command");
    static const rt::ChannelId gear = t.resolve("vehicle.powertrain.gear_request");
    static const rt::ChannelId steer = t.resolve("vehicle.steering.front.command");
    t.set(throttle, k < 24'000 ? 0.6 : 0.0);
    t.set(brake, k > 24'000 ? 0.5 : 0.0);
    t.set(gear, k > 34'000 ? -1.0 : 1.0);
    t.set(steer, 0.1);
  });
}

}  // namespace
}  // namespace hil::models
