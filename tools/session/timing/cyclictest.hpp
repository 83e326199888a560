#pragma once
// Runs cyclictest (rt-tests) as the reference for our loop's wake-up latency, with the same
// period, priority, CPU and tick count, and reads its histogram.

#include <cstdint>
#include <istream>
#include <optional>

#include "rt_core/stats/histogram.hpp"
#include "rt_core/time.hpp"

namespace hil::session {

struct CyclictestSpec {
  rt::Nanoseconds period = 250 * rt::kMicrosecond;
  std::int64_t loops = 40'000;
  int priority = 80;
  std::optional<int> cpu;
};

/// The command line for `options`, histogram of 1 µs bins to 10 ms like ours.
[[nodiscard]] std::string cyclictest_command(const CyclictestSpec& options);

/// Parses cyclictest's `-h` output (bins "000012 000345", "# Min/Max Latencies",
/// "# Histogram Overflows"). Throws std::runtime_error naming the line it cannot read.
[[nodiscard]] rt::HistogramSummary parse_cyclictest_histogram(std::istream& in);

/// Runs cyclictest and parses its histogram. Blocks for the whole run; throws
/// std::runtime_error with the fix when cyclictest is missing or fails.
[[nodiscard]] rt::HistogramSummary run_cyclictest(const CyclictestSpec& options);

}  // namespace hil::session
