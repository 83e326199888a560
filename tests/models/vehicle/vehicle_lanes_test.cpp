// The wheels' contacts four per instruction (AVX2, where the CPU has AVX2 and FMA) agree with two
// per instruction within the 4-lane kernels' few ulp: every value of the derivative and of its
// diagnostics, along driven runs of two and three axles on split surfaces (pavement and soil in the
// same call), bumps and a slope.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"
#include "models/terrain/terrain_patches.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

/// Driving hard with the steering swept, so that slip, slip angle and the suspension all move.
VehicleInputs driving(const VehicleParams& p, int step) {
  VehicleInputs in;
  for (std::size_t i = 0; i < p.wheel_count(); ++i) {
    in.drive_torque[i] = 60.0 + 10.0 * static_cast<double>(i);
    in.speed_ref[i] = 12.0;
  }
  in.throttle = 0.5;
  in.steering_command[0] = 0.3 * std::sin(1e-3 * step);
  in.brake = step % 4000 > 3000 ? 0.6 : 0.0;
  in.wind_speed = 4.0;
  return in;
}

/// How far the four-lane derivative (and its diagnostics) strays from the pairs' at the same
/// states, over `steps`: per value, the largest difference relative to the largest magnitude that
/// value had in either (what `hilsim replay --tolerance` compares); the worst of all values.
double largest_deviation(const VehicleParams& p, const Terrain& terrain, int steps) {
  Vehicle vehicle(p, terrain);  // four lanes where the CPU has them
  vehicle.reset(0.0, 0.0, 0.0, 4.0);
  VehicleModel pairs(p, terrain);
  pairs.use_four_lanes(false);
  EXPECT_FALSE(pairs.four_lanes());
  std::vector<double> largest;
  std::vector<double> difference;
  const auto compare = [&](std::size_t at, double a, double b) {
    if (largest.size() <= at) {
      largest.resize(at + 1, 0.0);
      difference.resize(at + 1, 0.0);
    }
    largest[at] = std::max({largest[at], std::abs(a), std::abs(b)});
    // NaN anywhere (or in one only) is a difference no tolerance accepts
    difference[at] =
        (std::isnan(a) || std::isnan(b)) ? INFINITY : std::max(difference[at], std::abs(a - b));
  };
  int surfaces_differing = 0;
  for (int k = 0; k < steps; ++k) {
    const VehicleInputs in = driving(p, k);
    vehicle.step(in);
    if (k % 7 != 0) continue;
    const StepInputs prepared = vehicle.model().prepare(in);
    StageDiagnostics d4;
    StageDiagnostics d2;
    const VehicleState four = vehicle.model().derivative(prepared, vehicle.state(), &d4);
    const VehicleState two = pairs.derivative(prepared, vehicle.state(), &d2);
    std::size_t at = 0;
    for (int i = 0; i < VehicleLayout::kSize; ++i) compare(at++, four[i], two[i]);
    for (std::size_t w = 0; w < p.wheel_count(); ++w) {
      const WheelDiagnostics& a = d4.wheels[w];
      const WheelDiagnostics& b = d2.wheels[w];
      for (const auto& [x, y] : {std::pair{a.tire.Fx, b.tire.Fx},
                                 {a.tire.Fy, b.tire.Fy},
                                 {a.tire.N, b.tire.N},
                                 {a.tire.s, b.tire.s},
                                 {a.tire.alpha, b.tire.alpha},
                                 {a.deflection, b.deflection},
                                 {a.force_world.x(), b.force_world.x()},
                                 {a.force_world.z(), b.force_world.z()}}) {
        compare(at++, x, y);
      }
      surfaces_differing += a.surface != b.surface;
    }
  }
  EXPECT_TRUE(vehicle.state().allFinite());
  EXPECT_EQ(surfaces_differing, 0);
  double worst = 0.0;
  for (std::size_t i = 0; i < largest.size(); ++i) {
    if (difference[i] > 0.0) worst = std::max(worst, difference[i] / largest[i]);
  }
  return worst;
}

/// The four-lane build's transcendentals are glibc's AVX2 kernels: within 4 ulp of the SSE ones
/// (2 measured), a few ulp through the derivative's chains (1.2e-15 measured; docs/performance.md,
/// round 6). A wrong lane, or one wheel's value in another's, is of the order of the value.
constexpr double kFourLanesTolerance = 1e-13;

class FourLanes : public ::testing::Test {
 protected:
  void SetUp() override {
    const FlatTerrain flat({});
    VehicleModel probe(ravon_params(), flat);
    if (!probe.four_lanes()) {
      GTEST_SKIP() << "this CPU has no AVX2 and FMA: the vehicle runs by pairs only";
    }
  }
};

/// Split surfaces: dry on the left, sand on the right, ice patches ahead.
std::shared_ptr<const Terrain> split_surfaces() {
  const auto base = std::make_shared<BumpsTerrain>(BumpsTerrainParams{
      .amplitude_x = 0.03, .wavelength_x = 4.0, .amplitude_y = 0.02, .wavelength_y = 3.0});
  return std::make_shared<PatchedTerrain>(
      base,
      std::vector<SurfacePatch>{{.x_min = -1e3,
                                 .x_max = 1e3,
                                 .y_min = -1e3,
                                 .y_max = 0.0,
                                 .surface = {.type = Surface::sand, .cone_index_pa = 500e3}},
                                {.x_min = 20.0,
                                 .x_max = 30.0,
                                 .y_min = -1e3,
                                 .y_max = 1e3,
                                 .surface = {.type = Surface::ice}},
                                {.x_min = 40.0,
                                 .x_max = 45.0,
                                 .y_min = -1.0,
                                 .y_max = 1e3,
                                 .surface = {.type = Surface::clay, .cone_index_pa = 700e3}}});
}

TEST_F(FourLanes, AgreeWithPairsForTwoAxles) {
  const auto terrain = split_surfaces();
  EXPECT_LE(largest_deviation(ravon_params(), *terrain, 40'000), kFourLanesTolerance);
  EXPECT_LE(largest_deviation(hmmwv_params(), *terrain, 40'000), kFourLanesTolerance);
  const InclineTerrain slope({.grade_percent = 15.0});
  EXPECT_LE(largest_deviation(ravon_params(), slope, 8'000), kFourLanesTolerance);
}

TEST_F(FourLanes, AgreeWithPairsForThreeAxles) {
  // Four wheels in one call, the third axle's two by the pair path
  VehicleParams p = hmmwv_params();
  p.drive.kind = DriveKind::torque;
  p.axle_count = 3;
  p.axles[2] = p.axles[1];
  p.axles[1].x = 0.5 * (p.axles[0].x + p.axles[2].x);
  p.axles[1].steering.steered = false;
  const auto terrain = split_surfaces();
  EXPECT_LE(largest_deviation(p, *terrain, 40'000), kFourLanesTolerance);
}

}  // namespace
}  // namespace hil::models
