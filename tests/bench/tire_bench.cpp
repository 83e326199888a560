// Cost of one evaluate_tire() per surface: what the chassis pays per wheel per RK4 stage.

#include <benchmark/benchmark.h>

#include "models/tire/tire.hpp"

namespace hil::models {
namespace {

void BM_EvaluateTire(benchmark::State& state) {
  const auto surface = static_cast<Surface>(state.range(0));
  state.SetLabel(std::string(surface_name(surface)));
  const TireParams tire;
  TireInputs in{.v_par = 12.0,
                .v_perp = 0.4,
                .delta = 0.012,
                .delta_rate = 0.01,
                .omega = 27.0,
                .surface = {.type = surface, .cone_index_pa = 600e3}};
  TirePatchState patch{.u_x = 0.001, .u_y = -0.0005};
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(in);
    benchmark::DoNotOptimize(patch);
    const TireOutputs out = evaluate_tire(tire, in, patch);
    benchmark::DoNotOptimize(out);
    in.omega += 1e-9;  // a new operating point each time: nothing to hoist
  }
}
BENCHMARK(BM_EvaluateTire)->DenseRange(0, 5);

}  // namespace
}  // namespace hil::models

BENCHMARK_MAIN();
