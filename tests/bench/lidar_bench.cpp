// The lidar's cost (issue 38 "Cost"): one revolution of a VLP-16 at 10 Hz — 16 beams × 1808
// firings (75.35 packets of 384 returns) — ray-cast by its worker
// (models/sensors/lidar/lidar_scanner.hpp), on flat ground, on bumps, and on a DEM of rolling
// hills (0.5 m cells), each with and without 20 objects (boxes, cylinders, cones) around the
// sensor. A revolution must take well under 100 ms on one core to keep up at 10 Hz.
// Reported: time per revolution (the benchmark's time) and rays per second.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "models/sensors/lidar/lidar_scanner.hpp"
#include "models/sensors/lidar/terrain_slope.hpp"
#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_dem.hpp"
#include "models/terrain/terrain_flat.hpp"

namespace {

using namespace hil::models;         // NOLINT(google-build-using-namespace): a benchmark
using namespace hil::models::lidar;  // NOLINT(google-build-using-namespace)

std::unique_ptr<Terrain> dem() {
  constexpr int n = 600;  // 300 m × 300 m
  const GridGeometry g{.ncols = n, .nrows = n, .x0 = -150.0, .y0 = -150.0, .cellsize = 0.5};
  std::vector<double> z(static_cast<std::size_t>(n) * n);
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> roughness(-0.02, 0.02);
  for (std::size_t k = 0; k < z.size(); ++k) {
    const double x = g.x0 + g.cellsize * static_cast<double>(k % n);
    const double y = g.y0 + g.cellsize * static_cast<double>(k / n);
    z[k] = 1.5 * std::sin(x / 23.0) * std::cos(y / 31.0) + 0.3 * std::sin(x / 5.0 + y / 7.0) +
           roughness(engine);
  }
  return std::make_unique<DemTerrain>(DemGrid(g, std::move(z), {}));
}

std::unique_ptr<Terrain> terrain(int kind) {
  if (kind == 0) return std::make_unique<FlatTerrain>(FlatTerrainParams{});
  if (kind == 1) {
    return std::make_unique<BumpsTerrain>(BumpsTerrainParams{
        .amplitude_x = 0.05, .wavelength_x = 2.0, .amplitude_y = 0.03, .wavelength_y = 3.0});
  }
  return dem();
}

/// Arguments: terrain (0 flat, 1 bumps, 2 DEM), objects (0 or 20).
void BM_LidarRevolution(benchmark::State& state) {
  const auto ground = terrain(static_cast<int>(state.range(0)));
  std::vector<WorldObject> objects;
  std::vector<ObjectState> states;
  for (int i = 0; i < state.range(1); ++i) {
    const double a = 2.0 * M_PI * i / static_cast<double>(state.range(1));
    const double r = 6.0 + 2.0 * (i % 5);
    objects.push_back({.name = "o",
                       .shape = static_cast<ObjectShape>(i % 3),
                       .length = 4.0,
                       .width = 1.8,
                       .height = 1.5});
    states.push_back({.x = r * std::cos(a),
                      .y = r * std::sin(a),
                      .z = ground->height(r * std::cos(a), r * std::sin(a)),
                      .yaw = a});
  }
  const RayWorld world{.terrain = ground.get(),
                       .slope_bound = slope_bound(*ground, {0, 0}, 200.0),
                       .objects = objects,
                       .states = states};
  LidarScanner scanner({.preset = PresetId::vlp16, .rotation_hz = 10, .range_noise_m = 0.01}, 3);
  const SensorPose pose{.origin = {0.0, 0.0, ground->height(0, 0) + 2.0}};
  const double per_revolution = 1.0 / (10.0 * scanner.preset().packet_period_s());  // 75.35
  PacketScan scan;
  std::int64_t p = 0;
  std::int64_t returns = 0;
  std::int64_t revolutions = 0;
  for (auto _ : state) {
    // One revolution's packets (75 or 76, 75.35 on average over the iterations)
    const auto end = static_cast<std::int64_t>(std::floor(++revolutions * per_revolution));
    for (; p < end; ++p) {
      scanner.scan(p, pose, world, scan);
      for (const std::uint16_t d : scan.distance) returns += d != 0 ? 1 : 0;
    }
    benchmark::DoNotOptimize(scan);
  }
  state.counters["rays/s"] =
      benchmark::Counter(static_cast<double>(p) * kReturnsPerPacket, benchmark::Counter::kIsRate);
  state.counters["returns/rev"] =
      static_cast<double>(returns) / (static_cast<double>(p) / per_revolution);
  state.counters["slope_bound"] = world.slope_bound;
}
BENCHMARK(BM_LidarRevolution)
    ->ArgNames({"terrain", "objects"})
    ->Args({0, 0})
    ->Args({0, 20})
    ->Args({1, 0})
    ->Args({1, 20})
    ->Args({2, 0})
    ->Args({2, 20})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
