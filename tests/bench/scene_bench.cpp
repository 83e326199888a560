// The 3D scene's cost off the RT thread (docs/console.md "3D scene and Foxglove 3D"): what
// the console thread spends per sample on /tf (nine FrameTransforms) and /scene/forces, on a
// full trail, and once per subscriber on /scene/world and per page on the `scene` message;
// what setup spends building the scene. RAVON on its double lane change.
//   build/release/tests/bench/scene_bench

#include <benchmark/benchmark.h>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/scene/scene_json.hpp"
#include "io/scene/scene_messages.hpp"
#include "runtime/scene/scene_builder.hpp"

namespace {

using namespace hil;

struct Ravon {
  Ravon() {
    config::ScenarioLoadResult loaded =
        config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt",
                              HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
    if (!loaded.ok()) throw std::runtime_error("RAVON's double lane change does not load");
    rig = std::move(*loaded.rig);
    scenario = std::move(*loaded.scenario);
    scene = runtime::build_scene(rig, &scenario);
    const io::scene::SceneChannels& c = scene->channels;
    for (const std::string* n : {&c.x, &c.y, &c.z, &c.roll, &c.pitch, &c.yaw}) {
      table.add({.name = *n, .unit = "-"});
    }
    for (const io::scene::SceneWheelChannels& w : c.wheels) {
      for (const std::string* n : {&w.spin, &w.steer, &w.travel, &w.fx, &w.fy, &w.fz}) {
        table.add({.name = *n, .unit = "-"});
      }
    }
    table.freeze();
    for (std::size_t i = 0; i < table.size(); ++i) {
      table.set({static_cast<std::uint32_t>(i)}, 0.1 * static_cast<double>(i) + 0.05);
    }
  }
  config::RigSpec rig;
  config::ScenarioSpec scenario;
  std::shared_ptr<const io::scene::Scene> scene;
  rt::ChannelTable table;
};

Ravon& ravon() {
  static Ravon r;
  return r;
}

void BM_SceneTransforms(benchmark::State& state) {
  io::scene::SceneMessages m(*ravon().scene, ravon().table);
  std::size_t bytes = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    m.transforms(ravon().table.values(), 1'000'000'000, [&](auto b) { bytes += b.size(); });
  }
  state.counters["bytes/sample"] =
      static_cast<double>(bytes) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SceneTransforms);

void BM_SceneForces(benchmark::State& state) {
  io::scene::SceneMessages m(*ravon().scene, ravon().table);
  std::size_t bytes = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    m.forces(ravon().table.values(), 1'000'000'000, [&](auto b) { bytes += b.size(); });
  }
  state.counters["bytes/sample"] =
      static_cast<double>(bytes) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SceneForces);

void BM_SceneFullTrail(benchmark::State& state) {
  io::scene::SceneMessages m(*ravon().scene, ravon().table);
  io::scene::SceneTrail trail;
  for (std::size_t i = 0; i < io::scene::kTrailPoints; ++i) {
    const auto x = static_cast<double>(i);
    trail.add(0.2 * x, 0.01 * x, 0);
  }
  std::size_t bytes = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    m.trail(trail, 1'000'000'000, [&](auto b) { bytes = b.size(); });
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SceneFullTrail);

void BM_SceneWorldMessage(benchmark::State& state) {
  const io::scene::SceneMessages m(*ravon().scene, ravon().table);
  std::size_t bytes = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    bytes = m.static_message(io::scene::SceneTopic::world, 1'000'000'000).size();
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["vertices"] = static_cast<double>(ravon().scene->terrain.vertex_count());
}
BENCHMARK(BM_SceneWorldMessage)->Unit(benchmark::kMillisecond);

void BM_ScenePageMessage(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    bytes = io::scene::scene_json(*ravon().scene).dump().size();
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ScenePageMessage)->Unit(benchmark::kMillisecond);

void BM_BuildScene(benchmark::State& state) {
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(runtime::build_scene(ravon().rig, &ravon().scenario));
  }
}
BENCHMARK(BM_BuildScene)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
