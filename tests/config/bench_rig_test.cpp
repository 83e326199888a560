// The rig files shipped in hil_rigs/bench load as documented.

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "config/executive_spec.hpp"
#include "config/rig/loader.hpp"

namespace hil::config {
namespace {

const std::filesystem::path kBench = std::filesystem::path(HIL_SOURCE_DIR) / "hil_rigs/bench";
constexpr Machine kTwoCpus{.configured_cpus = 2};  // the bench pins to CPU 1

std::string errors_of(const LoadResult& result) {
  std::string out;
  for (const ConfigError& error : result.errors) out += error.to_string() + "\n";
  return out;
}

TEST(BenchRig, LoadsWithItsDocumentedSettings) {
  const LoadResult result = load_rig_config(kBench / "rig.pbtxt", {}, kTwoCpus);

  ASSERT_TRUE(result.ok()) << errors_of(result);
  EXPECT_EQ(describe(result.settings->executive, result.settings->rt),
            "period 250us, SCHED_FIFO 80 on CPU 1, overrun policy skip, memory locked, "
            "cpu_dma_latency held");
}

TEST(BenchRig, FastOverlayChangesPeriodAndPolicyOnly) {
  const std::vector<std::filesystem::path> overlays{kBench / "overlay_fast.pbtxt"};

  const LoadResult result = load_rig_config(kBench / "rig.pbtxt", overlays, kTwoCpus);

  ASSERT_TRUE(result.ok()) << errors_of(result);
  EXPECT_EQ(describe(result.settings->executive, result.settings->rt),
            "period 100us, SCHED_FIFO 80 on CPU 1, overrun policy catch_up (max 4 in a row), "
            "memory locked, cpu_dma_latency held");
}

}  // namespace
}  // namespace hil::config
