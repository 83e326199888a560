// Cost of one FMU step in the loop (issue 18): FmuStage::run of the first-order test FMU —
// read the input channel, set it, doStep, get the output, write the channels — FMI 2 and 3, on
// the RT thread, and on a worker thread with the tick waiting for each step (the round trip
// of the hand-over, what a run not paced by real time pays; a real-time run does not wait).

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "rt_core/channel_table.hpp"
#include "runtime/fmu/fmu_stage.hpp"

namespace {

void BM_FmuTaskStep(benchmark::State& state) {
  using namespace hil;
  rt::ChannelTable table;
  (void)table.add({.name = "in.speed", .unit = "m/s", .direction = rt::Direction::input});
  (void)table.add({.name = "in.wind", .unit = "m/s", .direction = rt::Direction::input});
  const config::FmuSpec s{
      .path = fmt::format("{}/first_order_fmi{}.fmu", HIL_FMU_DIR, state.range(0)),
      .instance = "lag",
      .thread = state.range(1) != 0 ? config::FmuThread::worker : config::FmuThread::rt_thread,
      .inputs = {{.channel = "in.speed", .variable = "u", .value_reference = 3}},
      .outputs = {{.variable = "y",
                   .value_reference = 4,
                   .unit = "m/s",
                   .channel = "fmu.lag.y",
                   .drives = "in.wind"}}};
  runtime::FmuStage task(s, table, 0.00025);
  table.freeze();
  table.set(table.resolve("in.speed"), 1.0);
  std::int64_t tick = 0;
  for (auto _ : state) {  // every_ticks 1: due every tick
    task.run({.tick = tick, .time = tick * 250'000, .dt = 250'000, .dt_s = 0.00025});
    ++tick;
  }
  benchmark::DoNotOptimize(table.get(table.resolve("fmu.lag.y")));
  const auto pending = static_cast<std::uint64_t>(task.on_worker());  // the last may be running
  if (task.failed() || task.steps() + pending < static_cast<std::uint64_t>(tick)) {
    state.SkipWithError("the FMU failed or skipped steps");
  }
}
BENCHMARK(BM_FmuTaskStep)
    ->Args({2, 0})
    ->Args({3, 0})
    ->Args({2, 1})
    ->Args({3, 1})
    ->ArgNames({"fmi", "worker"});

}  // namespace

BENCHMARK_MAIN();
