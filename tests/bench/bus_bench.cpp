// The shared-memory bus's cost on the RT thread (docs/bus.md "Cost"): publishing and reading
// one region through the two-copy latch, and the whole bus task of RAVON's co-simulation
// overlay (hil_rigs/ravon/cosim.pbtxt: three input regions of 7, 7 and 1 channels, one output
// region of 17) with every input region written each tick.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <vector>

#include "io/bus/bus_exchange.hpp"
#include "io/bus/bus_image.hpp"

namespace hil::io::bus {
namespace {

BusSchema one_region(std::size_t n) {
  RegionSchema r{.name = "r", .direction = RegionDirection::output, .writer = "hilsim"};
  for (std::size_t i = 0; i < n; ++i) r.channels.push_back({fmt::format("c.v{}", i), "-"});
  return {.name = "bench", .regions = {r}};
}

void BM_BusWriteRegion(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  BusImage image(one_region(n));
  RegionWriter writer(image.region(0), 1);
  std::vector<double> values(n, 1.0);
  std::int64_t k = 0;
  for (auto _ : state) {
    writer.publish(values.data(), ++k, 1);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BusWriteRegion)->Arg(7)->Arg(168);

void BM_BusReadRegion(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  BusImage image(one_region(n));
  RegionWriter writer(image.region(0), 1);
  std::vector<double> values(n, 1.0);
  writer.publish(values.data(), 1, 1);
  RegionSnapshot snap;
  for (auto _ : state) {
    benchmark::DoNotOptimize(image.region(0).read(snap, 3));
    benchmark::DoNotOptimize(snap);
  }
}
BENCHMARK(BM_BusReadRegion)->Arg(7)->Arg(168);

void BM_BusExchangeRavon(benchmark::State& state) {
  rt::ChannelTable table;
  auto channels = [&](const char* prefix, int n, rt::Direction d) {
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
      names.push_back(fmt::format("{}.c{}", prefix, i));
      (void)table.add({.name = names.back(), .unit = "-", .direction = d});
    }
    return names;
  };
  BusSpec spec{
      .name = "ravon",
      .regions = {
          {.name = "behaviour",
           .writer = "behaviour",
           .channels = channels("behaviour", 7, rt::Direction::input),
           .timeout_ticks = 200},
          {.name = "env", .writer = "env", .channels = channels("env", 7, rt::Direction::input)},
          {.name = "battery",
           .writer = "battery",
           .channels = channels("battery", 1, rt::Direction::input),
           .timeout_ticks = 400},
          {.name = "state",
           .direction = RegionDirection::output,
           .writer = "hilsim",
           .channels = channels("state", 17, rt::Direction::output)}}};
  std::vector<BusProblem> problems;
  auto task = BusExchange::create(spec, table, problems);
  table.freeze();
  BusImage image(task->schema());
  ImageInput input(image);
  task->connect(&image, &input);
  std::vector<RegionWriter> writers;
  for (std::uint32_t r = 0; r < 3; ++r) writers.emplace_back(image.region(r), 5 + r);
  std::vector<double> values(7, 0.5);
  std::int64_t k = 0;
  for (auto _ : state) {
    // The co-simulators' three small publishes (~40 ns each, BM_BusWriteRegion/7) are
    // included: pausing the timer around them would cost more than they do
    for (RegionWriter& w : writers) w.publish(values.data(), k, 1);
    task->read(k);
    task->write(k);
    ++k;
  }
}
BENCHMARK(BM_BusExchangeRavon);

}  // namespace
}  // namespace hil::io::bus

BENCHMARK_MAIN();
