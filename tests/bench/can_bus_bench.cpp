// Per-tick CAN cost of the RAVON rig's mapping, every message due in the same tick:
// the rig's read phase (drain the ECU's two command frames, check length, alive counter and
// CRC-8, decode, write the input channels, watch the timeouts) and its write phase (read the
// output channels, encode all seven sensor messages with counter and CRC, send). The ECU's
// frames are made in advance by the mirrored bus (its work is not the rig's); the far end
// sends them and drains the rig's frames inside the timing (a few ns of ring operations).
// Report with --benchmark_repetitions=10 --benchmark_report_aggregates_only=true (median).

#include <benchmark/benchmark.h>

#include <stdexcept>
#include <vector>

#include "config/rig/loader.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/can_bus_mirror.hpp"
#include "io/can/transport/transport_factory.hpp"

namespace hil::io::can {
namespace {

constexpr double kPeriod = 250e-6;
constexpr std::int64_t kAllDue = 400;  // 100 ms at 4 kHz: the longest cycle, so all are due

void BM_RavonMappingAllDue(benchmark::State& state) {
  const config::LoadResult loaded =
      config::load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  if (!loaded.ok()) throw std::runtime_error(loaded.errors.front().to_string());
  CanBusSpec rig_spec = loaded.settings->can[0];
  rig_spec.uri = "virtual:can_bus_bench";
  CanBusSpec ecu_spec = mirror(rig_spec);
  ecu_spec.uri = "virtual:can_bus_bench_ecu";  // its own bus: it only makes the frames

  // The rig's channels by the mapping's names: received signals as inputs, sent as outputs
  rt::ChannelTable rig_table;
  add_mirror_channels(rig_spec, rig_table);
  std::vector<MappingProblem> problems;
  const auto rig = CanBus::create(rig_spec, rig_table, kPeriod, 0, problems);
  if (!rig) throw std::runtime_error(problems.front().message);
  rig_table.freeze();

  // 64 rounds of the ECU's command frames, counters and CRCs as the mirror makes them
  rt::ChannelTable ecu_table;
  add_mirror_channels(ecu_spec, ecu_table);
  const auto ecu = CanBus::create(ecu_spec, ecu_table, kPeriod, 0, problems);
  if (!ecu) throw std::runtime_error(problems.front().message);
  ecu_table.freeze();
  const auto ecu_tap = open_transport("virtual:can_bus_bench_ecu");
  std::vector<TimedFrame> commands;
  std::vector<TimedFrame> batch(16);
  for (std::int64_t k = 0; k < 64 * kAllDue; k += kAllDue) {
    ecu->write(k, ecu_table);
    const std::size_t n = ecu_tap->receive(batch, k);
    commands.insert(commands.end(), batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n));
  }
  const std::size_t per_round = commands.size() / 64;
  if (per_round != rig_spec.rx.size())
    throw std::runtime_error("the ECU did not send every command");

  const auto far_end = open_transport("virtual:can_bus_bench");
  std::vector<TimedFrame> sink(32);
  std::int64_t k = 0;
  std::size_t round = 0;
  std::size_t sent = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    for (std::size_t i = 0; i < per_round; ++i) {
      (void)far_end->send(commands[(round % 64) * per_round + i].frame, k);
    }
    rig->read(k, rig_table);
    rig->write(k, rig_table);
    sent += far_end->receive(sink, k);
    k += kAllDue;
    ++round;
  }
  if (rig->rx_counters(0).errors.load() != 0 || rig->rx_counters(0).counter_jumps.load() > 1) {
    state.SkipWithError("the rig rejected the ECU's frames");
  }
  state.counters["rx_msgs"] = static_cast<double>(per_round);
  state.counters["tx_msgs"] = static_cast<double>(sent) / static_cast<double>(round);
}
BENCHMARK(BM_RavonMappingAllDue);

/// A bus simulating the 150 cyclic messages of tests/bench/restbus/restbus150.dbc (a third
/// E2E P01/P05/P22), its far end draining them. Argument 1: every 400th tick, when all are due
/// (per frame: divide by 150); 0: tick after tick (the hyperperiod's average).
void BM_RestBus150(benchmark::State& state) {
  CanBusSpec spec;
  spec.name = "body";
  spec.uri = "virtual:rest_bus_bench";
  spec.database = dbc::load_dbc(HIL_SOURCE_DIR "/tests/bench/restbus/restbus150.dbc");
  spec.simulate_nodes = {"*"};
  spec.except_nodes = {"DUT"};
  rt::ChannelTable table;
  std::vector<MappingProblem> problems;
  const auto bus = CanBus::create(spec, table, kPeriod, 0, problems);
  if (!bus) throw std::runtime_error(problems.front().message);
  table.freeze();
  const auto far_end = open_transport("virtual:rest_bus_bench?queue=4096");
  std::vector<TimedFrame> sink(256);
  const std::int64_t step = state.range(0) == 1 ? kAllDue : 1;
  std::int64_t k = 0;
  std::size_t sent = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    bus->read(k, table);
    bus->write(k, table);
    sent += far_end->receive(sink, k);
    k += step;
  }
  state.counters["frames_per_tick"] =
      static_cast<double>(sent) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RestBus150)->Arg(1)->Arg(0);

}  // namespace
}  // namespace hil::io::can

BENCHMARK_MAIN();
