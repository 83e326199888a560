// Telemetry recorder figures: the RT push cost, the samples per second the recorder
// thread sustains for 300 channels (1 kHz is what a run needs), and bytes per sample.
//   build/release/tests/bench/record_bench

#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "io/record/telemetry_recorder.hpp"

namespace {

using hil::io::record::PushResult;
using hil::io::record::TelemetryRecorder;

constexpr int kGroups = 30;
constexpr int kChannelsPerGroup = 10;  // 300 channels

struct BenchTable : hil::rt::ChannelTable {
  BenchTable() {
    for (int g = 0; g < kGroups; ++g) {
      for (int c = 0; c < kChannelsPerGroup; ++c) {
        add({.name = "bench.group_" + std::to_string(g) + ".channel_" + std::to_string(c),
             .unit = "-"});
      }
    }
    freeze();
  }
};

class NullSink final : public hil::io::record::ByteSink {
 public:
  void write(std::span<const std::uint8_t>) override {}
  void sync() override {}
};

std::vector<double> sample_values(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.1 * static_cast<double>(i);
  return v;
}

/// push() of one recorded tick (300 values into the ring), as the RT thread calls it. Every
/// 1000 pushes the clock stops until the recorder has drained the ring, so that the queued
/// path (not the cheaper drop path) is measured.
void BM_RtPush(benchmark::State& state) {
  const BenchTable table;
  TelemetryRecorder rec(table, std::make_unique<NullSink>(),
                        {.tick_period_ns = 1'000'000, .ring_seconds = 2.0});
  const std::vector<double> values = sample_values(table.size());
  std::int64_t tick = 0;
  std::uint64_t dropped = 0;
  for (auto _ : state) {
    dropped += rec.push(tick++, values) == PushResult::dropped ? 1 : 0;
    if (tick % 1000 == 0) {
      state.PauseTiming();
      while (rec.counters().samples_recorded + dropped < static_cast<std::uint64_t>(tick)) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
      state.ResumeTiming();
    }
  }
  state.counters["dropped"] = static_cast<double>(dropped);
}
BENCHMARK(BM_RtPush);

/// The whole recorder: 20,000 samples of 300 channels pushed as fast as the ring takes
/// them, encoded and written to a file in /tmp, closed. samples/s is what it sustains.
void BM_RecorderThroughput(benchmark::State& state) {
  const BenchTable table;
  const std::vector<double> values = sample_values(table.size());
  const auto path = std::filesystem::temp_directory_path() / "hil_record_bench.mcap";
  constexpr std::int64_t kSamples = 20'000;
  std::uint64_t bytes = 0;
  for (auto _ : state) {
    TelemetryRecorder rec(table, path, {.tick_period_ns = 1'000'000});
    for (std::int64_t k = 0; k < kSamples;) {
      if (rec.push(k, values) == PushResult::queued) {
        ++k;
      } else {
        std::this_thread::yield();
      }
    }
    rec.stop();
    bytes = rec.counters().bytes_written;
  }
  std::filesystem::remove(path);
  state.counters["samples/s"] = benchmark::Counter(
      static_cast<double>(kSamples * state.iterations()), benchmark::Counter::kIsRate);
  state.counters["bytes/sample"] = static_cast<double>(bytes) / kSamples;
}
BENCHMARK(BM_RecorderThroughput)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
