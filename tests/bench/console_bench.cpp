// The operator console's cost on the tick (docs/console.md "Threads and cost"):
//   BM_ConsoleTap/armed:0|1    the tap alone on RAVON's channel table: idle (the channel
//                              snapshot and one relaxed load) and armed (also the tick's values
//                              into the ring; drained off the clock, so that nothing is dropped)
//   BM_RavonTick/clients:N     RAVON's whole tick on the harness at --speed max, 40 000 ticks;
//                              N = -1 console off, 0 on with nobody watching, 4 page clients
//                              streaming 32 channels each; the executive's execution time
//                              p50/p99/p99.9 per tick as counters (1 µs histogram bins)
//   build/release/tests/bench/console_bench

#include <benchmark/benchmark.h>

#include <memory>
#include <thread>
#include <vector>

#include "config/rig/loader.hpp"
#include "io/console/console_tap.hpp"
#include "runtime/rig.hpp"
#include "tests/support/console_client.hpp"
#include "tools/session/console_feed.hpp"
#include "tools/session/loop/harness.hpp"

namespace {

using namespace hil;

config::RigSpec ravon() {
  config::LoadResult loaded = config::load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  if (!loaded.ok()) throw std::runtime_error("cannot load RAVON");
  loaded.settings->can.clear();
  return *loaded.settings;
}

void BM_ConsoleTap(benchmark::State& state) {
  const config::RigSpec settings = ravon();
  runtime::Rig rig(settings, {.live_bus = false});
  const std::size_t n = rig.table().size();
  constexpr std::int64_t kRingTicks = 8192;
  io::console::ConsoleTap tap(rig.table(), n, kRingTicks);
  tap.arm(state.range(0) != 0);
  std::vector<double> row(n);
  std::int64_t k = 0;
  for (auto _ : state) {
    tap.publish(k);
    if (++k % (kRingTicks / 2) == 0) {  // drained off the clock: the queued path
      state.PauseTiming();
      std::int64_t tick = 0;
      while (tap.pop(tick, row)) {
      }
      state.ResumeTiming();
    }
    benchmark::ClobberMemory();
  }
  state.counters["channels"] = static_cast<double>(n);
  state.counters["dropped"] = static_cast<double>(tap.dropped());
}
BENCHMARK(BM_ConsoleTap)->ArgName("armed")->Arg(0)->Arg(1);

void BM_RavonTick(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  const config::RigSpec settings = ravon();
  for (auto _ : state) {
    runtime::Rig rig(settings, {.live_bus = false});
    runtime::TickPlan plan;
    rig.add_stages(plan);
    io::console::ConsoleSpec console;
    console.enabled = clients >= 0;
    console.port = 0;
    session::Speed speed;
    speed.mode = session::Speed::Mode::max;
    session::Harness harness(
        settings.executive, std::move(plan),
        {.speed = speed,
         .quiet = true,
         .console = console,
         .console_feed = session::console_feed(rig, {.rig = "ravon", .run_id = "bench"})});
    std::vector<std::unique_ptr<testing::ConsoleClient>> watching;
    for (int i = 0; i < clients; ++i) {
      watching.push_back(
          std::make_unique<testing::ConsoleClient>(testing::console_port(harness.console()->url()),
                                                   R"(["vehicle.wheel.*", "vehicle.body.*"])"));
    }
    const session::RunOutcome out = harness.run(40'000);
    state.counters["exec_p50_us"] = out.stats.exec_time.percentile_us(0.5);
    state.counters["exec_p99_us"] = out.stats.exec_time.percentile_us(0.99);
    state.counters["exec_p999_us"] = out.stats.exec_time.percentile_us(0.999);
    state.counters["exec_mean_us"] = out.stats.exec_time.mean_us;
    watching.clear();
  }
}
BENCHMARK(BM_RavonTick)
    ->ArgName("clients")
    ->Arg(-1)
    ->Arg(0)
    ->Arg(4)
    ->Iterations(1)
    ->Repetitions(3)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
