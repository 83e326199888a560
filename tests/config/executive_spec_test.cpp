// From the executive block to rt_core's settings, and the summary `hilsim check` prints.

#include "config/executive_spec.hpp"

#include "config/executive.pb.h"

#include <gtest/gtest.h>

namespace hil::config {
namespace {

TEST(ExecutiveSettings, FieldsLeftOutTakeRtCoreDefaults) {
  const rt::ExecutiveSpec config = to_executive_config(Executive{});
  const rt::RtSpec options = to_rt_options(Executive{});

  EXPECT_EQ(config.period, 250 * rt::kMicrosecond);
  EXPECT_EQ(config.overrun.kind, rt::OverrunKind::skip);
  EXPECT_EQ(options.priority, 80);
  EXPECT_EQ(options.cpu, std::nullopt);
  EXPECT_TRUE(options.lock_memory);
  EXPECT_TRUE(options.hold_dma_latency);
}

TEST(ExecutiveSettings, PolicyBlocksWithoutFieldsTakeTheirDefaults) {
  Executive catch_up;
  catch_up.mutable_catch_up();
  Executive stop_after;
  stop_after.mutable_stop_after();

  EXPECT_EQ(to_executive_config(catch_up).overrun.kind, rt::OverrunKind::catch_up);
  EXPECT_EQ(to_executive_config(catch_up).overrun.catch_up_max, 4U);
  EXPECT_EQ(to_executive_config(stop_after).overrun.stop_after_overruns, 10U);
  EXPECT_EQ(to_executive_config(stop_after).overrun.stop_after_window_ticks, 4000);
}

TEST(ExecutiveSettings, ConvertsUnits) {
  Executive executive;
  executive.set_period_us(100000);
  executive.set_cpu(0);

  EXPECT_EQ(to_executive_config(executive).period, 100 * rt::kMillisecond);
  EXPECT_EQ(to_rt_options(executive).cpu, 0);
}

TEST(ExecutiveSettings, DescribesWhatWillRun) {
  Executive executive;
  executive.set_cpu(1);
  executive.mutable_catch_up();

  EXPECT_EQ(describe(to_executive_config(executive), to_rt_options(executive)),
            "period 250us, SCHED_FIFO 80 on CPU 1, overrun policy catch_up (max 4 in a row), "
            "memory locked, cpu_dma_latency held");
}

TEST(ExecutiveSettings, DescribesTheNonRealTimeChoicesToo) {
  Executive executive;
  executive.set_period_us(1500);
  executive.set_priority(0);
  executive.set_lock_memory(false);
  executive.set_hold_dma_latency(false);
  executive.mutable_stop_after()->set_overruns(3);

  EXPECT_EQ(describe(to_executive_config(executive), to_rt_options(executive)),
            "period 1.5ms, normal scheduling, any CPU, overrun policy stop_after (3 overruns "
            "within 4000 ticks), memory not locked, cpu_dma_latency not held");
}

}  // namespace
}  // namespace hil::config
