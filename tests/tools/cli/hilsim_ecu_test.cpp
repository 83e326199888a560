// `hilsim ecu` and `hilsim check` on scenarios and the HMMWV rig, as a user runs them.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/udp_test_socket.hpp"

namespace {

using hil::io::testing::CommandResult;

CommandResult hilsim(const std::string& args) {
  return hil::io::testing::run_command(std::string(HILSIM_BINARY) + " " + args);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kRigs = HIL_SOURCE_DIR "/hil_rigs/";

TEST(HilsimCheck, TheHmmwvRigPasses) {
  const CommandResult run = hilsim("check " + kRigs + "hmmwv/rig.pbtxt");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "OK ")) << run.output;
}

TEST(HilsimCheck, ChecksAScenarioOnARig) {
  const CommandResult given = hilsim("check " + kRigs + "hmmwv/rig.pbtxt --scenario " + kRigs +
                                     "scenarios/double_lane_change.pbtxt");
  EXPECT_EQ(given.status, 0) << given.output;
  EXPECT_TRUE(contains(given.output, "ISO 3888-1 double lane change at 1 m/s")) << given.output;
  EXPECT_TRUE(contains(given.output, "5 gates")) << given.output;  // 3 lanes + 2 of its own
  // A scenario given as the file is recognised and checked on --rig
  const CommandResult detected =
      hilsim("check " + kRigs + "scenarios/hill_start.pbtxt --rig " + kRigs + "ravon/rig.pbtxt");
  EXPECT_EQ(detected.status, 0) << detected.output;
  EXPECT_TRUE(contains(detected.output, "hill start on a 10 % grade")) << detected.output;
}

TEST(HilsimCheck, ScenarioErrorsAreLocated) {
  const hil::config::testing::TempDir dir;
  const auto bad = dir.write("bad.pbtxt",
                             "duration_s: 5\n"
                             "drive { straight { speeds { at_s: 0 speed: 1 } } }\n"
                             "gates { stopped { by_s: 9 } }\n");
  const CommandResult run = hilsim("check " + bad.string() + " --rig " + kRigs + "ravon/rig.pbtxt");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_TRUE(contains(run.output, bad.string() +
                                       ":3:25: gates[0].stopped.by_s: 9 is out of range; "
                                       "expected 0..5 (the duration, s)"))
      << run.output;
}

TEST(HilsimEcu, AnUnknownRigListsTheKnownOnes) {
  const CommandResult run = hilsim("ecu --rig nosuchrig --can virtual:x");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(contains(run.output, "no rig \"nosuchrig\"")) << run.output;
  EXPECT_TRUE(contains(run.output, "hmmwv")) << run.output;
  EXPECT_TRUE(contains(run.output, "ravon")) << run.output;
}

TEST(HilsimEcu, ABadScenarioFileExitsWithItsErrors) {
  const hil::config::testing::TempDir dir;
  const auto bad = dir.write("s.pbtxt", "duration_s: 5\ndrive { }\n");
  const CommandResult run =
      hilsim("ecu --rig " + kRigs + "ravon/rig.pbtxt --can virtual:x --scenario " + bad.string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, bad.string() + ":2:1: drive: no driving task")) << run.output;
}

TEST(HilsimEcu, WithoutARigOnTheBusItHoldsAndReportsTheSilence) {
  const hil::config::testing::TempDir dir;
  const std::string json = (dir.path() / "ecu.json").string();
  const CommandResult run =
      hilsim("ecu --rig ravon --can virtual:hilsim_ecu_test --duration 300ms --json " + json);
  // Nobody sends on the bus: it never leaves its hold; the run length is the ECU's own
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "HIL_Pose")) << run.output;
  std::ifstream in(json);
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_GT(summary["cycles"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(summary["holding_cycles"], summary["cycles"]);
  EXPECT_EQ(summary["rx"].size(), 7U);
  EXPECT_EQ(summary["tx"][0]["name"], "ECU_SpeedRef");
  EXPECT_GT(summary["tx"][0]["frames"].get<std::uint64_t>(), 0U);  // it still sends its hold
}

TEST(HilsimEcu, ARigThatEndsFirstStopsItsScenarioWithoutAVerdict) {
  // The ECU's scenario clock holds while the rig is not heard: a rig that stops 12 s before
  // the scenario's end must not leave it waiting forever
  const hil::config::testing::TempDir dir;
  const std::string json = (dir.path() / "ecu.json").string();
  const std::uint16_t ecu_port = hil::io::can::test::UdpTestSocket::free_port();
  const std::uint16_t rig_port = hil::io::can::test::UdpTestSocket::free_port();
  const std::string ecu_uri =
      fmt::format("cannelloni://127.0.0.1:{}?local=127.0.0.1:{}", rig_port, ecu_port);
  const std::string rig_uri =
      fmt::format("cannelloni://127.0.0.1:{}?local=127.0.0.1:{}", ecu_port, rig_port);
  const std::string hilsim_path = HILSIM_BINARY;
  const CommandResult run = hil::io::testing::run_command(
      "(" + hilsim_path + " ecu -q --rig ravon --scenario straight_accel_brake --can '" + ecu_uri +
      "' --json " + json + " & sleep 0.5; " + hilsim_path +
      " run -q --no-rt --console off --duration 2s --scenario straight_accel_brake --can '" +
      rig_uri + "' >/dev/null; wait %1)");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "(stopped: the rig fell silent before the scenario's end)"))
      << run.output;
  EXPECT_FALSE(contains(run.output, "verdict")) << run.output;
  std::ifstream in(json);
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_TRUE(summary["rig_gone"].get<bool>());
  EXPECT_GT(summary["scenario_time_s"].get<double>(), 0.5);
  EXPECT_LT(summary["scenario_time_s"].get<double>(), 5.0);
}

}  // namespace
