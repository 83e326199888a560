// A model-exchange FMU's step allocates nothing (DESIGN.md §5): FmuStage::run over 3000 ticks
// of the bouncing ball (FMI 2 and 3; on the RT thread and on a worker), through its first
// bounce — RK4 substeps, the state event's bisection, event mode and iteration, states re-read —
// counted by the replaced operator new and by the counting malloc (which also sees the FMU's
// C code), with no page faults once warm.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "io/fmu/malloc_count.hpp"
#include "rt_core/channel_table.hpp"
#include "runtime/fmu/fmu_stage.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::config {
namespace {

class FmuMeBudget : public ::testing::TestWithParam<std::tuple<int, FmuThread>> {};

TEST_P(FmuMeBudget, AnMeStepAllocatesNothingAndFaultsNoPages) {
  const auto [version, thread] = GetParam();
  rt::ChannelTable table;
  FmuSpec s{
      .path = fmt::format("{}/bouncing_ball_me_fmi{}.fmu", HIL_FMU_DIR, version),
      .instance = "ball",
      .every_ticks = 4,
      .thread = thread,
      .outputs = {{.variable = "h", .value_reference = 0, .unit = "m", .channel = "fmu.ball.h"},
                  {.variable = "bounces",
                   .value_reference = 8,
                   .unit = "-",
                   .channel = "fmu.ball.bounces"}}};
  runtime::FmuStage task(s, table, 0.00025);
  ASSERT_EQ(task.on_worker(), thread == FmuThread::worker);
  EXPECT_EQ(task.probe().allocations, std::optional<std::uint64_t>(0));
  table.freeze();
  const rt::ChannelId bounces = table.resolve("fmu.ball.bounces");
  std::int64_t tick = 0;
  const auto run = [&](int n) {
    for (int i = 0; i < n; ++i, ++tick) {
      if (tick % task.every_ticks() != 0) continue;
      task.run({.tick = tick, .time = tick * 250'000, .dt = 1'000'000, .dt_s = 0.001});
    }
  };
  run(100);  // warm
  const long faults = testing::thread_minor_faults();
  const auto mallocs = io::fmu::thread_malloc_count();
  EXPECT_EQ(testing::allocations_in([&] { run(3000); }), 0U);  // to 0.775 s: one bounce
  if (mallocs) {
    EXPECT_EQ(*io::fmu::thread_malloc_count() - *mallocs, 0U);
  }
  if (testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(testing::thread_minor_faults() - faults, 0);
  }
  EXPECT_FALSE(task.failed());
  EXPECT_EQ(table.get(bounces), 1.0);  // the first bounce at 0.4515 s
}

INSTANTIATE_TEST_SUITE_P(Fmi, FmuMeBudget,
                         ::testing::Combine(::testing::Values(2, 3),
                                            ::testing::Values(FmuThread::rt_thread,
                                                              FmuThread::worker)),
                         [](const auto& p) {
                           return fmt::format(
                               "fmi{}_{}", std::get<0>(p.param),
                               std::get<1>(p.param) == FmuThread::worker ? "worker" : "rt_thread");
                         });

}  // namespace
}  // namespace hil::config
