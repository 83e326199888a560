// Bekker–Wong soft soil on the RT path (DESIGN.md §5): after warm-up, the HMMWV's steps on Wong's
// sandy loam — every wheel through models/tire/bekker_contact.hpp, two rim integrations per
// wheel per RK4 stage — make no heap allocation and take no minor page fault, and the wheels
// do sink. Links the allocation counter: a binary of its own.

#include <gtest/gtest.h>

#include <cmath>

#include "models/terrain/bekker_soil.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/tire/bekker_contact.hpp"
#include "models/tire/bekker_flexible.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_presets.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::models {
namespace {

TEST(BekkerRt, TheHmmwvOnSandyLoamNeitherAllocatesNorFaults) {
  const FlatTerrain loam(
      {.surface = {.type = Surface::sand, .soil = *find_bekker_soil("sandy_loam")}});
  Vehicle vehicle(hmmwv_params(), loam);
  VehicleInputs in;
  in.throttle =
      0.8;  // at 0.4 its rigid wheels stall at 0.09 m/s: the resistance of ~21 % of the load
  for (int k = 0; k < 8000; ++k) vehicle.step(in);  // 2 s warm-up: settled, rolling
  const std::uint64_t allocations = hil::testing::allocation_count();
  const long faults = hil::testing::thread_minor_faults();
  for (int k = 0; k < 20'000; ++k) {
    in.steering_command[0] = k > 10'000 ? 0.1 : 0.0;
    vehicle.step(in);
  }
  EXPECT_EQ(hil::testing::allocation_count() - allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(hil::testing::thread_minor_faults() - faults, 0);
  }
  EXPECT_TRUE(vehicle.state().allFinite());
  EXPECT_GT(vehicle.outputs().wheels[0].sinkage, 0.03);  // in the soil, not on it
  EXPECT_GT(vehicle.outputs().velocity_body.x(), 1.0);   // and moving
}

TEST(BekkerRt, TheFlexibleTireNeitherAllocatesNorFaults) {
  // Wong's flexible tire (models/tire/bekker_flexible.hpp) through the contact: three fixed
  // quadratures per evaluation, rigid and flexible branches both exercised
  const BekkerSoil sand = *find_bekker_soil("dry_sand");
  const TireParams tire;
  double sum = bekker_contact(tire, sand, 0.08, 0.0, 0.2, 1.0, 60.0e3).N;  // warm-up
  const std::uint64_t allocations = hil::testing::allocation_count();
  const long faults = hil::testing::thread_minor_faults();
  for (int k = 0; k < 20'000; ++k) {
    const double delta = 0.01 + 1e-5 * (k % 10'000);
    sum += bekker_contact(tire, sand, delta, 0.0, 0.3 * (k % 7) / 7.0, 1.0, 60.0e3).N;
    sum +=
        flexible_wheel_forces(sand, {.r = 0.47, .b = 0.318, .p_g = 60.0e3}, delta, -0.2).forces.W;
  }
  EXPECT_EQ(hil::testing::allocation_count() - allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(hil::testing::thread_minor_faults() - faults, 0);
  }
  EXPECT_TRUE(std::isfinite(sum));
  EXPECT_GT(sum, 0.0);
}

}  // namespace
}  // namespace hil::models
