// The vehicle's safe state (DESIGN.md §5): a state that is no longer finite latches it — at
// rest at the last finite pose, counted, every output finite — and time goes on.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

bool outputs_finite(const VehicleOutputs& o) {
  bool ok = o.position.allFinite() && o.velocity_body.allFinite() &&
            o.angular_velocity.allFinite() && o.acceleration_body.allFinite() &&
            std::isfinite(o.yaw) && std::isfinite(o.roll) && std::isfinite(o.pitch);
  for (const WheelOutputs& w : o.wheels) {
    ok = ok && std::isfinite(w.speed) && std::isfinite(w.angle) && std::isfinite(w.normal_force) &&
         std::isfinite(w.longitudinal_force) && std::isfinite(w.drive_torque);
  }
  return ok;
}

TEST(VehicleSafeState, ANonFiniteStateLatchesRestAtTheLastFinitePose) {
  const FlatTerrain ground(FlatTerrainParams{});
  Vehicle vehicle(ravon_params(), ground);
  vehicle.reset(3.0, -2.0, 0.5, 1.0);  // rolling at 1 m/s
  VehicleInputs inputs;
  for (int i = 0; i < 400; ++i) vehicle.step(inputs);  // 0.1 s
  ASSERT_FALSE(vehicle.outputs().safe_state);
  const double x = vehicle.outputs().position.x();
  const double y = vehicle.outputs().position.y();
  const double yaw = vehicle.outputs().yaw;

  VehicleState broken = vehicle.state();
  broken[0] = std::numeric_limits<double>::quiet_NaN();
  vehicle.set_state(broken);
  vehicle.step(inputs);

  const VehicleOutputs& o = vehicle.outputs();
  EXPECT_TRUE(o.safe_state);
  EXPECT_EQ(o.safe_state_entries, 1);
  EXPECT_EQ(o.tick, 401);
  EXPECT_NEAR(o.safe_state_since, 401 * ravon_params().dt, 1e-12);
  EXPECT_TRUE(vehicle.state().allFinite());
  EXPECT_TRUE(outputs_finite(o));
  EXPECT_NEAR(o.position.x(), x, 1e-3);  // where it was last seen whole
  EXPECT_NEAR(o.position.y(), y, 1e-3);
  EXPECT_NEAR(o.yaw, yaw, 1e-6);
  EXPECT_EQ(o.velocity_body.norm(), 0.0);  // at rest

  for (int i = 0; i < 4000; ++i) vehicle.step(inputs);  // held for a second, time goes on
  EXPECT_TRUE(vehicle.outputs().safe_state);
  EXPECT_EQ(vehicle.outputs().safe_state_entries, 1);
  EXPECT_EQ(vehicle.outputs().tick, 4401);
  EXPECT_TRUE(outputs_finite(vehicle.outputs()));
  EXPECT_LT(vehicle.outputs().velocity_body.norm(), 1e-9);

  vehicle.reset(0.0, 0.0, 0.0, 0.0);  // setup clears it
  EXPECT_FALSE(vehicle.outputs().safe_state);
}

TEST(VehicleSafeState, FiniteRunsNeverEnterIt) {
  const FlatTerrain ground(FlatTerrainParams{});
  Vehicle vehicle(hmmwv_params(), ground);
  vehicle.reset(0.0, 0.0, 0.0, 5.0);
  VehicleInputs inputs;
  inputs.speed_ref.fill(std::numeric_limits<double>::infinity());  // rejected, not latched
  for (int i = 0; i < 4000; ++i) vehicle.step(inputs);
  EXPECT_FALSE(vehicle.outputs().safe_state);
  EXPECT_EQ(vehicle.outputs().safe_state_entries, 0);
}

}  // namespace
}  // namespace hil::models
