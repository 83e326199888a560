// Cost of the environment models on the RT path: ns per terrain query (height + normal +
// surface) for each terrain kind, including a 1000 × 1000 DEM, and per Ackermann evaluation.

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "models/steering/steering.hpp"
#include "models/terrain/dem_grid.hpp"
#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_dem.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"

namespace hil::models {
namespace {

/// Query points spread over ±600 m (inside and outside the DEM), cycled through.
std::vector<Eigen::Vector2d> query_points() {
  std::vector<Eigen::Vector2d> points;
  points.reserve(4096);
  for (int i = 0; i < 4096; ++i) {
    points.emplace_back(600.0 * std::sin(0.37 * i), 600.0 * std::cos(0.61 * i));
  }
  return points;
}

void run_queries(benchmark::State& state, const Terrain& terrain) {
  const std::vector<Eigen::Vector2d> points = query_points();
  std::size_t i = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    const Eigen::Vector2d& p = points[i++ & (points.size() - 1)];
    benchmark::DoNotOptimize(terrain.height(p.x(), p.y()));
    benchmark::DoNotOptimize(terrain.normal(p.x(), p.y()));
    benchmark::DoNotOptimize(terrain.surface(p.x(), p.y()));
  }
}

void BM_TerrainFlat(benchmark::State& state) { run_queries(state, FlatTerrain({})); }

void BM_TerrainIncline(benchmark::State& state) {
  run_queries(state, InclineTerrain({.grade_percent = 15.0, .rise_direction = 0.3}));
}

void BM_TerrainBumps(benchmark::State& state) {
  run_queries(
      state,
      BumpsTerrain(
          {.amplitude_x = 0.05, .wavelength_x = 2.0, .amplitude_y = 0.03, .wavelength_y = 3.0}));
}

void BM_TerrainDem1000(benchmark::State& state) {
  constexpr int n = 1000;
  const GridGeometry g{.ncols = n, .nrows = n, .x0 = -500.0, .y0 = -500.0, .cellsize = 1.0};
  std::vector<double> z(static_cast<std::size_t>(n) * n);
  std::vector<Surface> s(z.size());
  for (std::size_t k = 0; k < z.size(); ++k) {
    const std::size_t column = k % n;
    const std::size_t row = k / n;  // integer division on purpose: the row index
    z[k] = 0.5 * std::sin(0.01 * static_cast<double>(column)) + 1e-3 * static_cast<double>(row);
    s[k] = static_cast<Surface>(k % kSurfaceCount);
  }
  run_queries(state, DemTerrain(DemGrid(g, std::move(z), std::move(s))));
}

void BM_Ackermann(benchmark::State& state) {
  const AckermannParams p{};
  double d = -0.5;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(ackermann_angles(p, d));
    d = d > 0.5 ? -0.5 : d + 1e-3;
  }
}

BENCHMARK(BM_TerrainFlat);
BENCHMARK(BM_TerrainIncline);
BENCHMARK(BM_TerrainBumps);
BENCHMARK(BM_TerrainDem1000);
BENCHMARK(BM_Ackermann);

}  // namespace
}  // namespace hil::models

BENCHMARK_MAIN();
