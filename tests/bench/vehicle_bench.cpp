// Goal: ≤ 2 µs median per RK4 step of the RAVON-like vehicle (4 wheels, tires on
// flat dry ground) on the development machine; and the same with its drive. The presets
// carry their drives (RAVON electric, HMMWV diesel); "Torque" runs RAVON with torque inputs
// (the vehicle alone). Also the parts of one derivative evaluation (chassis alone, one full
// derivative, also with the wheels by pairs as without AVX2), the vehicle on clay with bumps,
// and the HMMWV on sand by the VTI and by Bekker–Wong.
// Report with --benchmark_repetitions=10 --benchmark_report_aggregates_only=true (median).

#include <benchmark/benchmark.h>

#include "models/terrain/bekker_soil.hpp"
#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

/// A vehicle driving: torque on every wheel, steering held, so that slip, slip angle and the
/// suspension are all busy (nothing degenerates to a fast path).
VehicleInputs driving_inputs(const VehicleParams& p) {
  VehicleInputs in;
  for (std::size_t i = 0; i < p.wheel_count(); ++i) {
    in.drive_torque[i] = 40.0;  // DriveKind::torque
    in.speed_ref[i] = 10.0;     // electric: ≈ 3 m/s
  }
  in.throttle = 0.3;  // combustion
  in.steering_command[0] = 0.15;
  in.wind_speed = 5.0;
  in.wind_direction = 1.0;
  return in;
}

void run_steps(benchmark::State& state, const VehicleParams& p, const Terrain& terrain) {
  Vehicle vehicle(p, terrain);
  vehicle.reset(0.0, 0.0, 0.0, 3.0);
  const VehicleInputs in = driving_inputs(p);
  for (int i = 0; i < 4000; ++i) vehicle.step(in);  // 1 s: into a dynamic steady state
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    vehicle.step(in);
    benchmark::DoNotOptimize(vehicle.outputs());
  }
}

void BM_VehicleStepRavonDry(benchmark::State& state) {
  const FlatTerrain flat({});
  run_steps(state, ravon_params(), flat);
}
BENCHMARK(BM_VehicleStepRavonDry);

void BM_VehicleStepRavonTorqueDry(benchmark::State& state) {
  const FlatTerrain flat({});
  VehicleParams p = ravon_params();
  p.drive.kind = DriveKind::torque;
  run_steps(state, p, flat);
}
BENCHMARK(BM_VehicleStepRavonTorqueDry);

void BM_VehicleStepHmmwvDry(benchmark::State& state) {
  const FlatTerrain flat({});
  run_steps(state, hmmwv_params(), flat);
}
BENCHMARK(BM_VehicleStepHmmwvDry);

// The HMMWV on soft soil, VTI (MAVS sand, cone index) against Bekker–Wong (Wong's dry sand:
// two Wong–Reece rim integrations of 16 points per wheel per RK4 stage): the soft-soil cost
// per vehicle step beside the VTI's (docs/models.md "Soft soil (Bekker–Wong)").
void BM_VehicleStepHmmwvSandVti(benchmark::State& state) {
  const FlatTerrain sand({.surface = {.type = Surface::sand, .cone_index_pa = 450e3}});
  run_steps(state, hmmwv_params(), sand);
}
BENCHMARK(BM_VehicleStepHmmwvSandVti);

void BM_VehicleStepHmmwvSandBekker(benchmark::State& state) {
  const FlatTerrain sand(
      {.surface = {.type = Surface::sand, .soil = *find_bekker_soil("dry_sand")}});
  run_steps(state, hmmwv_params(), sand);
}
BENCHMARK(BM_VehicleStepHmmwvSandBekker);

void BM_VehicleStepRavonClayBumps(benchmark::State& state) {
  const BumpsTerrain bumps({.amplitude_x = 0.03,
                            .wavelength_x = 4.0,
                            .amplitude_y = 0.02,
                            .wavelength_y = 3.0,
                            .surface = {.type = Surface::clay, .cone_index_pa = 600e3}});
  run_steps(state, ravon_params(), bumps);
}
BENCHMARK(BM_VehicleStepRavonClayBumps);

void BM_VehicleDerivativeRavon(benchmark::State& state) {
  const FlatTerrain flat({});
  Vehicle vehicle(ravon_params(), flat);
  vehicle.reset(0.0, 0.0, 0.0, 3.0);
  const StepInputs in = vehicle.model().prepare(driving_inputs(vehicle.params()));
  VehicleState x = vehicle.state();
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(vehicle.model().derivative(in, x, nullptr));
  }
}
BENCHMARK(BM_VehicleDerivativeRavon);

/// The same with the wheels' contacts two per instruction (what a CPU without AVX2 runs).
void BM_VehicleDerivativeRavonPairs(benchmark::State& state) {
  const FlatTerrain flat({});
  Vehicle vehicle(ravon_params(), flat);
  vehicle.reset(0.0, 0.0, 0.0, 3.0);
  VehicleModel pairs(ravon_params(), flat);
  pairs.use_four_lanes(false);
  const StepInputs in = pairs.prepare(driving_inputs(vehicle.params()));
  VehicleState x = vehicle.state();
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(pairs.derivative(in, x, nullptr));
  }
}
BENCHMARK(BM_VehicleDerivativeRavonPairs);

void BM_ChassisDerivativeRavon(benchmark::State& state) {
  const FlatTerrain flat({});
  const Vehicle vehicle(ravon_params(), flat);
  const Chassis& chassis = vehicle.model().chassis();
  ChassisState x = vehicle.state().head<ChassisLayout::kSize>();
  x[ChassisLayout::kCorners] = 0.01;
  ChassisLoads loads;
  for (std::size_t i = 0; i < 4; ++i) loads.hub_force_world[i] = {100.0, 50.0, 1800.0};
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(chassis.derivative(x, loads));
  }
}
BENCHMARK(BM_ChassisDerivativeRavon);

}  // namespace
}  // namespace hil::models

BENCHMARK_MAIN();
