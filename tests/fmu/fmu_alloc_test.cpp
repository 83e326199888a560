// The tick's side of an FMU allocates nothing (DESIGN.md §5): FmuStage::run over a thousand
// ticks of the first-order FMU (FMI 2 and 3; on the RT thread and on a worker thread), counted
// by the replaced operator new, with no page faults once warm; and the same for inputs and
// outputs of integer and boolean types (the feedthrough FMU, FMI 2 and 3: values converted to
// and from the channels' doubles). (What an FMU's own C code allocates is not counted here:
// docs/fmu.md.)

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "rt_core/channel_table.hpp"
#include "runtime/fmu/fmu_stage.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::config {
namespace {

class FmuStageBudget : public ::testing::TestWithParam<std::tuple<int, FmuThread>> {};

TEST_P(FmuStageBudget, UpdateAllocatesNothingAndFaultsNoPages) {
  const auto [version, thread] = GetParam();
  rt::ChannelTable table;
  (void)table.add({.name = "in.speed", .unit = "m/s", .direction = rt::Direction::input});
  (void)table.add({.name = "in.wind", .unit = "m/s", .direction = rt::Direction::input});
  FmuSpec s{.path = fmt::format("{}/first_order_fmi{}.fmu", HIL_FMU_DIR, version),
            .instance = "lag",
            .every_ticks = 2,
            .thread = thread,
            .parameters = {{.name = "T", .value_reference = 0, .value = 0.1}},
            .inputs = {{.channel = "in.speed", .variable = "u", .value_reference = 3}},
            .outputs = {{.variable = "y",
                         .value_reference = 4,
                         .unit = "m/s",
                         .safe = 0.0,
                         .channel = "fmu.lag.y",
                         .drives = "in.wind"}}};
  runtime::FmuStage task(s, table, 0.00025);
  ASSERT_EQ(task.on_worker(), thread == FmuThread::worker);
  table.freeze();
  const rt::ChannelId speed = table.resolve("in.speed");
  const rt::ChannelId y = table.resolve("fmu.lag.y");
  table.set(speed, 1.0);
  std::int64_t tick = 0;
  const auto run = [&](int n) {
    for (int i = 0; i < n; ++i, ++tick) {
      // as the executive runs it: every every_ticks-th tick, with a step of that many periods
      if (tick % task.every_ticks() != 0) continue;
      task.run({.tick = tick, .time = tick * 250'000, .dt = 500'000, .dt_s = 0.0005});
    }
  };
  run(100);  // warm
  const long faults = testing::thread_minor_faults();
  EXPECT_EQ(testing::allocations_in([&] { run(1000); }), 0U);
  if (testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(testing::thread_minor_faults() - faults, 0);
  }
  // On the worker the tick waits for it (not real time): the steps handed are all finished
  // but perhaps the last, whose outputs are due at the next step tick
  EXPECT_LE(task.steps(), 550U);
  EXPECT_GE(task.steps(), thread == FmuThread::worker ? 549U : 550U);
  EXPECT_GT(table.get(y), 0.9);  // 1100 ticks = 0.275 s = 2.75 T: y ≈ 1 − e^−2.75
  EXPECT_EQ(table.get(table.resolve("in.wind")), table.get(y));
}

INSTANTIATE_TEST_SUITE_P(Fmi, FmuStageBudget,
                         ::testing::Combine(::testing::Values(2, 3),
                                            ::testing::Values(FmuThread::rt_thread,
                                                              FmuThread::worker)),
                         [](const auto& p) {
                           return fmt::format(
                               "fmi{}_{}", std::get<0>(p.param),
                               std::get<1>(p.param) == FmuThread::worker ? "worker" : "rt_thread");
                         });

class FmuTypesBudget : public ::testing::TestWithParam<std::tuple<int, FmuThread>> {};

TEST_P(FmuTypesBudget, IntegerAndBooleanValuesAllocateNothing) {
  using io::fmu::ValueType;
  const auto [version, thread] = GetParam();
  rt::ChannelTable table;
  (void)table.add({.name = "in.speed", .unit = "m/s", .direction = rt::Direction::input});
  FmuSpec s{.path = fmt::format("{}/feedthrough_fmi{}.fmu", HIL_FMU_DIR, version),
            .instance = "ft",
            .every_ticks = 1,
            .thread = thread,
            .parameters = {{.name = "int32_offset",
                            .value_reference = 1,
                            .value = 5,
                            .type = ValueType::int32}},
            .inputs = {{.channel = "in.speed",
                        .variable = "int32_in",
                        .value_reference = 24,
                        .type = ValueType::int32},
                       {.channel = "in.speed",
                        .variable = "bool_in",
                        .value_reference = 32,
                        .type = ValueType::boolean}},
            .outputs = {{.variable = "int32_out",
                         .value_reference = 25,
                         .unit = "-",
                         .channel = "fmu.ft.int32_out",
                         .type = ValueType::int32},
                        {.variable = "bool_out",
                         .value_reference = 33,
                         .unit = "-",
                         .channel = "fmu.ft.bool_out",
                         .type = ValueType::boolean}}};
  runtime::FmuStage task(s, table, 0.00025);
  table.freeze();
  table.set(table.resolve("in.speed"), 2.4);
  std::int64_t tick = 0;
  const auto run = [&](int n) {
    for (int i = 0; i < n; ++i, ++tick) {
      task.run({.tick = tick, .time = tick * 250'000, .dt = 250'000, .dt_s = 0.00025});
    }
  };
  run(100);  // warm
  EXPECT_EQ(testing::allocations_in([&] { run(1000); }), 0U);
  EXPECT_EQ(table.get(table.resolve("fmu.ft.int32_out")), 7.0);  // round(2.4) + 5
  EXPECT_EQ(table.get(table.resolve("fmu.ft.bool_out")), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Fmi, FmuTypesBudget,
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
