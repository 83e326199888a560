// The benchmark for `hilsim play`: the real binary plays a log of N frames
// 1 ms apart onto a cannelloni UDP receiver on loopback. Reported, per run:
//   duration_error_us   the player's: (last sent − first sent) − (N−1) ms
//   lateness_p50/p99/max_us, late   the player's per-frame lateness (send time − deadline)
//   rx_frames           frames the receiver decoded (must be N)
//   rx_duration_error_us  the receiver's: (last arrival − first arrival) − (N−1) ms
//   rx_p99_offset_us    p99 of |arrival_i − arrival_0 − i ms| at the receiver
// Run it by hand: build/release/tests/bench/play_bench --benchmark_filter=10000
// (ctest smoke-runs the 100-frame case only; no figure is asserted).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cannelloni_sink.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using hil::config::testing::TempDir;
using hil::io::can::test::CannelloniSink;

std::string log_of(std::int64_t frames) {
  std::string log;
  for (std::int64_t i = 0; i < frames; ++i) {
    std::array<char, 96> line{};
    std::snprintf(line.data(), line.size(), "(%010lld.%06lld) can0 %03llX#%016llX\n",
                  static_cast<long long>(1'700'000'000 + i / 1000),
                  static_cast<long long>(i % 1000 * 1000), static_cast<long long>(i & 0x7FF),
                  static_cast<long long>(i));
    log += line.data();
  }
  return log;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size()))) - 1;
  std::ranges::nth_element(values, values.begin() + static_cast<std::ptrdiff_t>(k));
  return values[k];
}

void BM_PlayToUdp(benchmark::State& state) {
  const std::int64_t frames = state.range(0);
  const TempDir dir;
  const auto log = dir.write("bench.log", log_of(frames));
  const auto json_path = dir.path() / "play.json";
  for (auto _ : state) {
    CannelloniSink sink;
    const auto run =
        hil::io::testing::run_command(std::string(HILSIM_BINARY) + " play " + log.string() +
                                      " --to '" + sink.uri() + "' -q --json " + json_path.string());
    sink.stop();
    if (run.status != 0) {
      state.SkipWithError(("hilsim play failed: " + run.output).c_str());
      return;
    }
    std::ifstream in(json_path);
    const nlohmann::json j = nlohmann::json::parse(in);
    state.counters["duration_error_us"] = j["duration_error_us"].get<double>();
    state.counters["lateness_p50_us"] = j["lateness_us"]["p50"].get<double>();
    state.counters["lateness_p99_us"] = j["lateness_us"]["p99"].get<double>();
    state.counters["lateness_max_us"] = j["lateness_us"]["max"].get<double>();
    state.counters["late"] = j["late"].get<double>();

    const auto got = sink.frames();
    state.counters["rx_frames"] = static_cast<double>(got.size());
    if (got.size() < 2) continue;
    std::vector<double> offsets;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const auto expected = static_cast<double>(i) * 1e6;
      offsets.push_back(
          std::abs(static_cast<double>(got[i].timestamp_ns - got[0].timestamp_ns) - expected) /
          1e3);
    }
    state.counters["rx_duration_error_us"] =
        (static_cast<double>(got.back().timestamp_ns - got.front().timestamp_ns) -
         static_cast<double>(got.size() - 1) * 1e6) /
        1e3;
    state.counters["rx_p99_offset_us"] = percentile(offsets, 0.99);
  }
}
BENCHMARK(BM_PlayToUdp)->Arg(100)->Arg(10'000)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
