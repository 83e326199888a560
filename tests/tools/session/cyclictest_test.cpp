#include "tools/session/timing/cyclictest.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace hil::tools {
namespace {

// Trimmed from a real `cyclictest -q -m -t1 -p80 -i250 -l2000 -h 20` run on this machine.
constexpr const char* kOutput =
    "# /dev/cpu_dma_latency set to 0us\n"
    "# Histogram\n"
    "000000 000000\n"
    "000006 000002\n"
    "000010 000039\n"
    "000011 000064\n"
    "000019 000089\n"
    "# Total: 000000194\n"
    "# Min Latencies: 00006\n"
    "# Avg Latencies: 00074\n"
    "# Max Latencies: 10864\n"
    "# Histogram Overflows: 00006\n"
    "# Histogram Overflow at cycle number:\n"
    "# Thread 0: 00000 00008 00009 00017 00020 00021\n";

TEST(Cyclictest, ParsesTheHistogramAndSummaryLines) {
  std::istringstream in(kOutput);
  const rt::HistogramSummary h = session::parse_cyclictest_histogram(in);

  EXPECT_EQ(h.count, 200U);  // 194 binned + 6 overflows
  EXPECT_EQ(h.overflow, 6U);
  EXPECT_EQ(h.bins[10], 39U);
  EXPECT_EQ(h.min_ns, 6'000);
  EXPECT_EQ(h.max_ns, 10'864'000);
  EXPECT_EQ(h.mean_us, 74.0);
  EXPECT_EQ(h.percentile_us(0.5), 11.0);       // rank 100: 2 + 39 + 64 ≥ 100 at bin 11
  EXPECT_EQ(h.percentile_us(0.99), 10'864.0);  // in the overflow: the exact max
}

TEST(Cyclictest, OutputWithoutAHistogramIsAClearError) {
  std::istringstream in("cyclictest: unrecognized option '--bogus'\n");
  try {
    (void)session::parse_cyclictest_histogram(in);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no histogram"), std::string::npos);
  }
}

TEST(Cyclictest, CommandMirrorsOurLoopSettings) {
  EXPECT_EQ(session::cyclictest_command(
                {.period = 250 * rt::kMicrosecond, .loops = 40'000, .priority = 80, .cpu = 1}),
            "cyclictest --quiet --mlockall --threads=1 --priority=80 --interval=250 "
            "--loops=40000 --histogram=10000 --affinity=1");
}

}  // namespace
}  // namespace hil::tools
