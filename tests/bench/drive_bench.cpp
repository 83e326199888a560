// Cost of the drive models on the real-time path: one electric-drive derivative (4 motors +
// battery, what the vehicle pays per RK4 stage), one controller update (per tick), one
// combustion powertrain derivative (torque converter and clutch variants) and update.

#include <benchmark/benchmark.h>

#include "models/drive/electric_drive.hpp"
#include "models/drive/electric_drive_params.hpp"
#include "models/drive/powertrain.hpp"
#include "models/drive/powertrain_params.hpp"

namespace hil::models {
namespace {

void BM_ElectricDriveDerivative4Motors(benchmark::State& state) {
  const ElectricDriveParams p = ravon_drive_params();
  ElectricDriveState x = electric_drive_initial_state(p, 0.8);
  for (std::size_t j = 0; j < 4; ++j)
    x[ElectricDriveLayout::current(j)] = 5.0 + static_cast<double>(j);
  const WheelValues duty{0.4, 0.41, 0.39, 0.42};
  DriveWheelInputs wheels;
  wheels.omega = {2.0, 2.1, 1.9, 2.05};
  wheels.other_torque = {-40.0, -41.0, -39.0, -42.0};
  wheels.inertia = {1.0, 1.0, 1.0, 1.0};
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(wheels);
    const ElectricDriveRates r = electric_drive_derivative(p, x, duty, wheels);
    benchmark::DoNotOptimize(r);
    wheels.omega[0] += 1e-9;  // a new operating point each time
  }
}
BENCHMARK(BM_ElectricDriveDerivative4Motors);

void BM_ElectricDriveControllerUpdate4Motors(benchmark::State& state) {
  const ElectricDriveParams p = ravon_drive_params();
  ElectricDriveState x = electric_drive_initial_state(p, 0.8);
  ElectricDriveControllerState ctrl;
  WheelValues omega{2.0, 2.1, 1.9, 2.05};
  const WheelValues ref{2.5, 2.5, 2.5, 2.5};
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    const WheelValues duty = electric_drive_controller_sample(p, ctrl, x, omega, ref, 250e-6);
    benchmark::DoNotOptimize(duty);
    omega[0] += 1e-9;
  }
}
BENCHMARK(BM_ElectricDriveControllerUpdate4Motors);

void BM_PowertrainDerivative(benchmark::State& state) {
  const bool torque_converter = state.range(0) == 0;
  state.SetLabel(torque_converter ? "HMMWV, torque converter" : "car, clutch");
  const PowertrainParams p = torque_converter ? hmmwv_powertrain() : autosim_car_powertrain();
  PowertrainState x = powertrain_initial_state(p);
  x << 200.0, 30.0, 0.05, 0.01;
  PowertrainDiscreteState d = powertrain_initial_discrete_state(p);
  d.transmission.gear = 2;
  d.throttle = 0.7;
  WheelValues omega{5.9, 6.0, 6.1, 6.0};
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    const PowertrainRates r = powertrain_derivative(p, x, d, omega);
    benchmark::DoNotOptimize(r);
    omega[0] += 1e-9;
  }
}
BENCHMARK(BM_PowertrainDerivative)->Arg(0)->Arg(1);

void BM_PowertrainUpdate(benchmark::State& state) {
  const PowertrainParams p = hmmwv_powertrain();
  PowertrainState x = powertrain_initial_state(p);
  x[PowertrainLayout::kPropshaftSpeed] = 30.0;
  PowertrainDiscreteState d = powertrain_initial_discrete_state(p);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(x);
    powertrain_update(p, d, x, {.throttle = 0.7}, 250e-6);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_PowertrainUpdate);

}  // namespace
}  // namespace hil::models

BENCHMARK_MAIN();
