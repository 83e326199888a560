// Per-tick overhead of the executive: everything it does around the tasks (clock reads,
// phase dispatch, statistics, overrun check), with the sleep taken out.

#include <benchmark/benchmark.h>

#include "rt_core/channel_table.hpp"
#include "rt_core/executive.hpp"

namespace hil::rt {
namespace {

/// Real CLOCK_MONOTONIC reads; sleeping returns at once, so only the overhead is measured.
class NoSleepClock final : public Clock {
 public:
  Nanoseconds now() noexcept override { return clock_.now(); }
  void sleep_until(Nanoseconds /*deadline*/) noexcept override {}

 private:
  MonotonicClock clock_;
};

class EmptyTask final : public Stage {
 public:
  void run(const TickContext& c) noexcept override { benchmark::DoNotOptimize(c.tick); }
};

constexpr std::int64_t kTicksPerBatch = 10'000;

void BM_ExecutiveTickOverhead(benchmark::State& state) {
  const auto task_count = static_cast<std::size_t>(state.range(0));
  std::vector<EmptyTask> tasks(task_count);
  std::vector<StageEntry> entries;
  for (EmptyTask& t : tasks) entries.push_back({.name = "empty", .stage = &t});
  NoSleepClock clock;
  for (auto _ : state) {
    state.PauseTiming();
    // A generous period: the measured ticks never overrun, as on a real loop.
    Executive exec({.period = kMaxPeriod}, entries, clock);
    state.ResumeTiming();
    benchmark::DoNotOptimize(exec.run(kTicksPerBatch));
  }
  // Seconds per tick, printed with an SI prefix (e.g. "180n").
  state.counters["per_tick"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kTicksPerBatch),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ExecutiveTickOverhead)
    ->Arg(1)
    ->Arg(10)
    ->ArgName("tasks")
    ->Unit(benchmark::kMillisecond);

void BM_ChannelPublish(benchmark::State& state) {
  ChannelTable table;
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    table.add({.name = "c.ch" + std::to_string(i), .unit = "-"});
  }
  table.freeze();
  std::int64_t tick = 0;
  for (auto _ : state) table.publish(tick++);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ChannelPublish)->Arg(100)->Arg(1000)->ArgName("channels");

}  // namespace
}  // namespace hil::rt

BENCHMARK_MAIN();
