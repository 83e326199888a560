// Validation of a RigConfig built in code, without files: every rule a user can break.

#include "config/rig/validate.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rt_core/executive_spec.hpp"
#include "rt_core/overrun_policy.hpp"

namespace hil::config {
namespace {

constexpr Machine kTwoCpus{.configured_cpus = 2};

std::vector<std::string> problems(const RigConfig& config) {
  std::vector<std::string> out;
  for (const ConfigError& error : validate(config, SourceMap{}, kTwoCpus)) {
    out.push_back(error.to_string());
  }
  return out;
}

using Problems = std::vector<std::string>;

TEST(Validate, DefaultConfigIsValid) { EXPECT_EQ(problems(RigConfig{}), Problems{}); }

TEST(Validate, PeriodLimitsAreThoseOfTheExecutive) {
  RigConfig config;
  config.mutable_executive()->set_period_us(rt::kMinPeriod / rt::kMicrosecond);
  EXPECT_EQ(problems(config), Problems{});
  config.mutable_executive()->set_period_us(rt::kMaxPeriod / rt::kMicrosecond);
  EXPECT_EQ(problems(config), Problems{});

  config.mutable_executive()->set_period_us(rt::kMaxPeriod / rt::kMicrosecond + 1);
  EXPECT_EQ(problems(config),
            Problems{"executive.period_us: 100001 is out of range; expected 50..100000 "
                     "(microseconds)"});
}

TEST(Validate, PriorityAbove99IsRejectedAndZeroMeansNormalScheduling) {
  RigConfig config;
  config.mutable_executive()->set_priority(0);
  EXPECT_EQ(problems(config), Problems{});

  config.mutable_executive()->set_priority(100);
  EXPECT_EQ(problems(config),
            Problems{"executive.priority: 100 is out of range; expected 0..99 (SCHED_FIFO "
                     "priority; 0 = normal scheduling)"});
}

TEST(Validate, CpuMustExistOnThisMachine) {
  RigConfig config;
  config.mutable_executive()->set_cpu(1);
  EXPECT_EQ(problems(config), Problems{});

  config.mutable_executive()->set_cpu(2);
  EXPECT_EQ(problems(config),
            Problems{"executive.cpu: 2 is out of range; expected 0..1 (CPU index; this machine "
                     "has 2 CPUs configured, sysconf(_SC_NPROCESSORS_CONF); leave cpu out for "
                     "no pinning)"});
  config.mutable_executive()->set_cpu(-1);
  EXPECT_EQ(problems(config).size(), 1U);
}

TEST(Validate, CatchUpAllowsOneToAThousandTicks) {
  RigConfig config;
  config.mutable_executive()->mutable_catch_up()->set_max_ticks(1000);
  EXPECT_EQ(problems(config), Problems{});

  config.mutable_executive()->mutable_catch_up()->set_max_ticks(0);
  EXPECT_EQ(problems(config),
            Problems{"executive.catch_up.max_ticks: 0 is out of range; expected 1..1000 (late "
                     "ticks run in a row)"});
}

TEST(Validate, StopAfterOverrunsFitTheExecutivesRecord) {
  RigConfig config;
  auto& stop = *config.mutable_executive()->mutable_stop_after();
  stop.set_overruns(rt::kOverrunRecordCapacity);
  EXPECT_EQ(problems(config), Problems{});

  stop.set_overruns(rt::kOverrunRecordCapacity + 1);
  EXPECT_EQ(problems(config),
            Problems{"executive.stop_after.overruns: 1025 is out of range; expected 1..1024 "
                     "(overruns; the executive keeps the last 1024)"});
}

TEST(Validate, StopAfterWindowMustHoldTheOverruns) {
  RigConfig config;
  auto& stop = *config.mutable_executive()->mutable_stop_after();
  stop.set_overruns(20);
  stop.set_window_ticks(20);
  EXPECT_EQ(problems(config), Problems{});

  stop.set_window_ticks(19);
  EXPECT_EQ(problems(config),
            Problems{"executive.stop_after.window_ticks: a window of 19 ticks cannot hold 20 "
                     "overruns; expected window_ticks >= overruns"});
}

TEST(Validate, OutOfRangeOverrunsAreReportedOnceNotAgainAsAWindowProblem) {
  RigConfig config;
  auto& stop = *config.mutable_executive()->mutable_stop_after();
  stop.set_overruns(5000);
  stop.set_window_ticks(5);

  EXPECT_EQ(problems(config).size(), 1U);
}

TEST(Validate, ReportsEveryProblemInFieldOrder) {
  RigConfig config;
  config.mutable_executive()->set_period_us(1);
  config.mutable_executive()->set_priority(1000);
  config.mutable_executive()->set_cpu(7);

  const Problems found = problems(config);

  ASSERT_EQ(found.size(), 3U);
  EXPECT_TRUE(found[0].starts_with("executive.period_us: 1 is out of range"));
  EXPECT_TRUE(found[1].starts_with("executive.priority: 1000 is out of range"));
  EXPECT_TRUE(found[2].starts_with("executive.cpu: 7 is out of range"));
}

}  // namespace
}  // namespace hil::config
