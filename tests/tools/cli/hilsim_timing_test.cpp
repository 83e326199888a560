// `hilsim timing` as a user runs it: the binary, its output, its JSON, its errors.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/tools/cli/cli_runner.hpp"

namespace {

using hil::tools::testing::CommandResult;

CommandResult hilsim(const std::string& args) { return hil::tools::testing::run_hilsim(args); }

TEST(HilsimTiming, ShortRunPrintsASummaryAndWritesEveryJsonKey) {
  const auto json_path = std::filesystem::temp_directory_path() / "hilsim_timing_test.json";
  const CommandResult run =
      hilsim("timing --period 1ms --duration 300ms --load-us 50 --priority 0 --json " +
             json_path.string());

  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("ticks 300 (completed)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("wake-up latency"), std::string::npos);
  EXPECT_NE(run.output.find("not real-time"), std::string::npos);  // priority 0: no FIFO

  std::ifstream in(json_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("period_ns"), 1'000'000);
  EXPECT_EQ(j.at("ticks"), 300);
  EXPECT_FALSE(j.at("realtime").get<bool>());
  EXPECT_TRUE(j.at("overruns").is_number_unsigned());
  for (const char* key : {"p50", "p99", "p999", "p9999", "max"}) {
    EXPECT_TRUE(j.at("wake_latency_us").contains(key)) << key;
  }
  for (const char* key : {"p50", "p99", "p999", "max"}) {
    EXPECT_TRUE(j.at("exec_time_us").contains(key)) << key;
  }
  // 50 µs of busy work per tick: the median execution time is at least that.
  EXPECT_GE(j.at("exec_time_us").at("p50").get<double>(), 49.0);
  EXPECT_EQ(j.at("wake_latency_us").at("samples"), 300);
  std::filesystem::remove(json_path);
}

TEST(HilsimTiming, StopAfterPolicyEndsTheRunWithExitStatus3) {
  // 3 ms of work in a 1 ms period: every tick overruns.
  const CommandResult run = hilsim(
      "timing --period 1ms --duration 1s --load-us 3000 --priority 0 --policy stop_after "
      "--stop-after 5 --window 100 --quiet");
  EXPECT_EQ(run.status, 3) << run.output;
  EXPECT_NE(run.output.find("ticks 5 (stopped by the stop_after overrun policy)"),
            std::string::npos)
      << run.output;
}

TEST(HilsimTiming, QuietSilencesTheOverrunWarningsAndTheSummaryStillCountsThem) {
  // 3 ms of work in a 1 ms period: every tick overruns (the skip policy goes on)
  const std::string args =
      "timing --period 1ms --duration 100ms --load-us 3000 --priority 0 --console off";
  const CommandResult loud = hilsim(args);
  EXPECT_EQ(loud.status, 0) << loud.output;
  EXPECT_NE(loud.output.find("warning: overrun at tick 0:"), std::string::npos) << loud.output;
  const CommandResult quiet = hilsim(args + " -q");
  EXPECT_EQ(quiet.status, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("overrun at tick"), std::string::npos) << quiet.output;
  EXPECT_EQ(quiet.output.find("real-time events not shown"), std::string::npos) << quiet.output;
  EXPECT_NE(quiet.output.find("ticks 100 (completed), overruns 100,"), std::string::npos)
      << quiet.output;
}

TEST(HilsimTiming, BadArgumentsSayWhatIsWrongAndWhatIsExpected) {
  CommandResult run = hilsim("timing --period 20us");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("'20us' is out of range; expected 50us..100ms"), std::string::npos)
      << run.output;

  run = hilsim("timing --duration ten");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("'ten' is not a duration"), std::string::npos) << run.output;

  run = hilsim("timing --policy sometimes");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("sometimes not in {skip,catch_up,stop_after}"), std::string::npos)
      << run.output;
}

TEST(HilsimTiming, TakesItsSettingsFromARigFileWithOverlaysAndFlagsWin) {
  const auto json_path = std::filesystem::temp_directory_path() / "hilsim_timing_config.json";
  const std::string rig = std::string(HIL_SOURCE_DIR) + "/hil_rigs/bench/";
  const CommandResult run = hilsim("timing --config " + rig + "rig.pbtxt --overlay " + rig +
                                   "overlay_fast.pbtxt --priority 0 --duration 100ms --quiet "
                                   "--json " +
                                   json_path.string());

  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(json_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("period_ns"), 100'000);  // from the overlay
  EXPECT_EQ(j.at("policy"), "catch_up");  // from the overlay
  EXPECT_EQ(j.at("cpu"), 1);              // from the base file
  EXPECT_EQ(j.at("priority"), 0);         // the flag wins over the file's 80
  EXPECT_EQ(j.at("ticks"), 1000);
  std::filesystem::remove(json_path);
}

TEST(HilsimTiming, ABadRigFileIsReportedWithFileLineAndColumnAndNothingRuns) {
  const auto path = std::filesystem::temp_directory_path() / "hilsim_bad_rig.pbtxt";
  std::ofstream(path) << "executive {\n  period_us: 20\n}\n";
  const CommandResult run = hilsim("timing --config " + path.string());
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find(path.string() + ":2:14: executive.period_us: 20 is out of range"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("ticks"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(HilsimTiming, ARigAsTheLoadReportsItsTasks) {
  const auto json_path = std::filesystem::temp_directory_path() / "hilsim_timing_rig_test.json";
  const CommandResult run =
      hilsim("timing --rig ravon --duration 1s --priority 0 -q --json " + json_path.string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("load rig ravon, scenario double_lane_change, ECU virtual"),
            std::string::npos)
      << run.output;
  std::ifstream in(json_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("period_ns"), 250'000);  // the rig's executive
  EXPECT_EQ(j.at("ticks"), 4000);
  for (const char* task : {"ecu_rx", "can_rx", "scenario_events", "ecu", "vehicle",
                           "scenario_judge", "ecu_tx", "can_tx", "tick_counter"}) {
    ASSERT_TRUE(j.at("task_exec_time_us").contains(task)) << task << "\n" << j.dump(2);
    // each stage timed on the ticks it ran: the ECU's driver every 20 ms (80 ticks)
    EXPECT_EQ(j["task_exec_time_us"][task]["samples"], task == std::string("ecu") ? 50 : 4000)
        << task;
  }
  // The vehicle's step is real work: its median is above zero
  EXPECT_GT(j["task_exec_time_us"]["vehicle"]["p50"].get<double>(), 0.0);
  std::filesystem::remove(json_path);
}

TEST(HilsimTiming, HelpListsTheCommandsAndEachCommandHasAnExample) {
  const CommandResult top = hilsim("--help");
  EXPECT_EQ(top.status, 0);
  EXPECT_NE(top.output.find("timing"), std::string::npos);
  EXPECT_NE(top.output.find("check"), std::string::npos);
  for (const char* cmd :
       {"run", "replay", "ecu", "play", "export", "timing", "check", "dbc", "tire-curve"}) {
    const CommandResult help = hilsim(std::string(cmd) + " --help");
    EXPECT_EQ(help.status, 0) << cmd;
    EXPECT_NE(help.output.find("hilsim " + std::string(cmd)), std::string::npos)
        << cmd << " --help has no example:\n"
        << help.output;
  }
}

}  // namespace
