// What a scenario in the loop costs per tick (docs/ecu.md "Cost"): the RAVON rig alone, the
// same with the virtual ECU, the scenario's events and its judge (the in-process run of
// `hilsim run --scenario`), and the pieces: the ECU task alone, one control cycle of the
// driver, one observation of the judge with the lane change's gates.
// Report with --benchmark_repetitions=10 --benchmark_report_aggregates_only=true (median).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "runtime/rig.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::ecu {
namespace {

config::ScenarioLoadResult load(const std::string& scenario, const std::string& bus,
                                const std::string& rig = "ravon") {
  config::ScenarioLoadResult loaded =
      config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/" + scenario + ".pbtxt",
                            HIL_SOURCE_DIR "/hil_rigs/" + rig + "/rig.pbtxt");
  if (!loaded.ok()) throw std::runtime_error(loaded.errors.front().to_string());
  loaded.rig->can[0].uri = "virtual:" + bus;
  return loaded;
}

/// One tick of `stages` as the executive runs it (without its clock): the due ones in order.
void tick(const std::vector<rt::StageEntry>& stages, std::int64_t k) noexcept {
  for (const rt::StageEntry& s : stages) {
    if (k % s.decimation != s.offset) continue;
    const rt::Nanoseconds dt = 250'000 * static_cast<rt::Nanoseconds>(s.decimation);
    s.stage->run(
        {.tick = k, .time = k * 250'000, .dt = dt, .dt_s = static_cast<double>(dt) * 1e-9});
  }
}

template <class Component>
std::vector<rt::StageEntry> tick_of(Component& component) {
  runtime::TickPlan plan;
  component.add_stages(plan);
  return plan.entries();
}

void run_ticks(benchmark::State& state, const std::vector<rt::StageEntry>& tasks) {
  std::int64_t k = 0;
  for (; k < 8'000; ++k) tick(tasks, k);  // 2 s: the vehicle under way
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    tick(tasks, k++);
  }
}

void BM_RigAloneTick(benchmark::State& state) {
  config::ScenarioLoadResult loaded = load("double_lane_change", "bench_rig_alone");
  runtime::Rig rig(*loaded.rig);
  run_ticks(state, tick_of(rig));
}
BENCHMARK(BM_RigAloneTick);

/// The scenario's run as `hilsim run` builds it (tools/session/run_builder.hpp), unrecorded.
std::unique_ptr<session::Run> scenario_run(config::ScenarioLoadResult loaded) {
  return session::RunBuilder({.loaded = session::LoadedRig{.name = "ravon",
                                                           .settings = std::move(*loaded.rig),
                                                           .scenario = std::move(loaded.scenario)},
                              .clock = {.speed = {.mode = session::Speed::Mode::max}},
                              .quiet = true})
      .build();
}

/// The stages of a built run, as its executive runs them.
std::vector<rt::StageEntry> stages_of(const session::Run& run) {
  const std::span<const rt::StageEntry> s = run.harness->executive().stages();
  return {s.begin(), s.end()};
}

void BM_ScenarioRunTick(benchmark::State& state) {
  const std::unique_ptr<session::Run> run =
      scenario_run(load("double_lane_change", "bench_scenario"));
  run_ticks(state, stages_of(*run));
}
BENCHMARK(BM_ScenarioRunTick);

void BM_VirtualEcuTick(benchmark::State& state) {
  const std::unique_ptr<session::Run> run = scenario_run(load("double_lane_change", "bench_ecu"));
  const std::vector<rt::StageEntry> all = stages_of(*run);
  for (std::int64_t k = 0; k < 8'000; ++k) tick(all, k);
  std::vector<rt::StageEntry> ecu;  // the ECU alone, its peer now quiet
  std::copy_if(all.begin(), all.end(), std::back_inserter(ecu), [&](const rt::StageEntry& t) {
    ecu::VirtualEcu& e = *run->ecu;
    return t.stage == &e.receive_stage() || t.stage == &e.drive_stage() ||
           t.stage == &e.send_stage();
  });
  std::int64_t k = 8'000;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    tick(ecu, k++);
  }
}
BENCHMARK(BM_VirtualEcuTick);

void BM_DriverCycle(benchmark::State& state) {
  config::ScenarioLoadResult loaded = load("double_lane_change", "bench_driver");
  rt::ChannelTable table;
  for (const char* name : {"vehicle.body.position.x", "vehicle.body.position.y", "vehicle.body.yaw",
                           "vehicle.body.forward_speed"}) {
    (void)table.add({.name = name, .unit = "-", .direction = rt::Direction::input});
  }
  for (const char* w : {"fl", "fr", "rl", "rr"}) {
    (void)table.add({.name = std::string("vehicle.wheel.") + w + ".speed_ref", .unit = "-"});
  }
  table.freeze();
  Driver driver(*loaded.rig->vehicle, *loaded.scenario, table, 0.02);
  double t = 0.0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    table.set(table.resolve("vehicle.body.position.x"), 40.0 + t);  // in the lane change
    driver.step(t, table);
    t += 0.02;
    if (t > 30.0) t = 0.0;
    benchmark::DoNotOptimize(driver.status());
  }
}
BENCHMARK(BM_DriverCycle);

// The HMMWV's cycle: the Stanley steering on the front axle and the speed cascade, in its
// 60 km/h lane change
void BM_DriverCycleHmmwv(benchmark::State& state) {
  config::ScenarioLoadResult loaded =
      load("hmmwv_double_lane_change_60", "bench_driver_hmmwv", "hmmwv");
  rt::ChannelTable table;
  for (const char* name :
       {"vehicle.body.position.x", "vehicle.body.position.y", "vehicle.body.yaw",
        "vehicle.body.forward_speed", "vehicle.body.yaw_rate", "vehicle.powertrain.engine_speed"}) {
    (void)table.add({.name = name, .unit = "-", .direction = rt::Direction::input});
  }
  for (const char* name :
       {"vehicle.steering.front.command", "vehicle.powertrain.throttle", "vehicle.brake.command",
        "vehicle.brake.park", "vehicle.powertrain.gear_request"}) {
    (void)table.add({.name = name, .unit = "-"});
  }
  table.freeze();
  Driver driver(*loaded.rig->vehicle, *loaded.scenario, table, 0.02);
  table.set(table.resolve("vehicle.body.forward_speed"), 16.0);
  double t = 0.0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    table.set(table.resolve("vehicle.body.position.x"), 100.0 + 16.0 * (t - 10.0));
    driver.step(t, table);
    t += 0.02;
    if (t > 15.0) t = 10.0;
    benchmark::DoNotOptimize(driver.status());
  }
}
BENCHMARK(BM_DriverCycleHmmwv);

void BM_JudgeObservation(benchmark::State& state) {
  config::ScenarioLoadResult loaded = load("double_lane_change", "bench_judge");
  loaded.scenario->gates.push_back(
      {.name = "deviation", .check = config::MaxDeviationGate{.max_m = 1.0, .to_s = 1e9}});
  runtime::ScenarioJudge judge(*loaded.scenario);
  double x = 0.0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    judge.observe({.time = x, .x = x, .y = 0.01 * x, .yaw = 0.01, .speed = 1.0});
    x += 0.00025;
    if (x > 140.0) x = 0.0;
  }
}
BENCHMARK(BM_JudgeObservation);

}  // namespace
}  // namespace hil::ecu

BENCHMARK_MAIN();
