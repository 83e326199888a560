// `hilsim check` over what ships, and over a broken copy of the RAVON rig for each kind of
// error a user makes: every error names FILE:LINE:COLUMN and the field, and says what is
// expected.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools {
namespace {

namespace fs = std::filesystem;
using testing::run_hilsim;

const fs::path kRigs = fs::path(HIL_SOURCE_DIR) / "hil_rigs";

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The 1-based line of the first occurrence of `text` in `file_text`.
int line_of(const std::string& file_text, const std::string& text) {
  const auto at = file_text.find(text);
  if (at == std::string::npos) return -1;
  return 1 + static_cast<int>(std::count(file_text.begin(), file_text.begin() + at, '\n'));
}

TEST(HilsimCheck, EveryShippedRigPassesWithItsDefaultScenario) {
  int rigs = 0;
  for (const fs::directory_entry& dir : fs::directory_iterator(kRigs)) {
    const fs::path rig = dir.path() / "rig.pbtxt";
    if (!fs::exists(rig)) continue;
    ++rigs;
    const testing::CommandResult r = run_hilsim("check " + rig.string());
    EXPECT_EQ(r.status, 0) << rig << "\n" << r.output;
    EXPECT_EQ(r.output.find("OK " + rig.string()), 0U) << r.output;
  }
  EXPECT_GE(rigs, 3);  // bench, hmmwv, ravon
}

TEST(HilsimCheck, EveryShippedScenarioPassesOnEveryVehicleRigItIsFor) {
  int checked = 0;
  int refused = 0;
  for (const char* rig : {"ravon", "hmmwv"}) {
    for (const fs::directory_entry& f : fs::directory_iterator(kRigs / "scenarios")) {
      if (f.path().extension() != ".pbtxt") continue;
      const testing::CommandResult r = run_hilsim("check " + (kRigs / rig / "rig.pbtxt").string() +
                                                  " --scenario " + f.path().string());
      // A scenario written for other rigs (`rigs: "hmmwv"`) is refused at that field
      const std::string text = read_text(f.path());
      if (text.find("\nrigs: ") != std::string::npos &&
          text.find(std::string("rigs: \"") + rig + "\"") == std::string::npos) {
        EXPECT_EQ(r.status, 1) << f.path() << " on " << rig << "\n" << r.output;
        EXPECT_NE(r.output.find(std::string("not for the rig ") + rig), std::string::npos)
            << r.output;
        ++refused;
        continue;
      }
      EXPECT_EQ(r.status, 0) << f.path() << " on " << rig << "\n" << r.output;
      ++checked;
    }
  }
  EXPECT_GE(checked, 17);  // six scenarios on two rigs, five of the HMMWV's own
  EXPECT_GE(refused, 5);   // the HMMWV's own on RAVON
}

/// A copy of the RAVON rig (and its DBC) with one edit, checked.
class BrokenRavon : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy_file(kRigs / "ravon" / "ravon.dbc", dir_.path() / "ravon.dbc");
    original_ = read_text(kRigs / "ravon" / "rig.pbtxt");
  }
  /// Replaces the first `from` by `to`, checks, and returns the output.
  testing::CommandResult check_with(const std::string& from, const std::string& to) {
    std::string text = original_;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    edited_ = text;
    return run_hilsim("check " + dir_.write("rig.pbtxt", text).string());
  }
  /// "…/rig.pbtxt:LINE:" for the line holding `text` in the edited file.
  std::string at_line_of(const std::string& text) const {
    return (dir_.path() / "rig.pbtxt").string() + ":" + std::to_string(line_of(edited_, text)) +
           ":";
  }

  config::testing::TempDir dir_;
  std::string original_;
  std::string edited_;
};

TEST_F(BrokenRavon, ASyntaxErrorIsLocated) {
  const testing::CommandResult r = check_with("period_us: 250 ", "period_us: 250 }");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("unknown field \"priority\"; expected one of: executive, vehicle"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(at_line_of("priority: 80") + "3: priority:"), std::string::npos)
      << r.output;
}

TEST_F(BrokenRavon, AMisspeltFieldSuggestsTheRightOne) {
  const testing::CommandResult r = check_with("  priority: 80", "  priorty: 80");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find(at_line_of("priorty") +
                          "3: executive.priorty: unknown field \"priorty\"; did you mean "
                          "\"priority\"?"),
            std::string::npos)
      << r.output;
}

TEST_F(BrokenRavon, AnOutOfRangeValueSaysTheRange) {
  const testing::CommandResult r = check_with("period_us: 250", "period_us: 20");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find(at_line_of("period_us: 20") + "14: executive.period_us: 20 is out of "
                                                        "range; expected 50..100000"),
            std::string::npos)
      << r.output;
}

TEST_F(BrokenRavon, AnUnknownChannelInTheMappingIsNamedWithItsField) {
  const std::string park = "set { channel: \"vehicle.brake.park\"";
  const testing::CommandResult r = check_with(park, "set { channel: \"vehicle.brake.parking\"");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find(at_line_of("vehicle.brake.parking") +
                          "24: can.buses[0].rx[0].on_timeout.set[4].channel: unknown channel "
                          "'vehicle.brake.parking'; did you mean 'vehicle.brake.park'?"),
            std::string::npos)
      << r.output;
}

TEST_F(BrokenRavon, AnUnknownDbcSignalNamesTheMessageAndTheDbc) {
  const testing::CommandResult r = check_with("signal: \"SteerFront\"", "signal: \"SteerFrnt\"");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find(at_line_of("SteerFrnt") +
                          "25: can.buses[0].rx[1].signals[0].signal: no signal \"SteerFrnt\" in "
                          "message ECU_Steer of " +
                          (dir_.path() / "ravon.dbc").string() + "; did you mean \"SteerFront\"?"),
            std::string::npos)
      << r.output;
}

TEST_F(BrokenRavon, InconsistentGeometryIsNamedPerAxle) {
  const testing::CommandResult r = check_with(
      "preset: \"ravon\" ",
      "preset: \"ravon\"\n  axles { x: -0.6 track: 1.156 } axles { x: 0.6 track: 1.156 }\n ");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("vehicle.axles[1].x: must be behind axles[0] (x < -0.6) (got 0.6)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("vehicle.axles[0].x: must be the front axle ahead of the CG (x > 0) "
                          "(got -0.6)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(at_line_of("axles {")), std::string::npos) << r.output;
}

TEST_F(BrokenRavon, AMissingDefaultScenarioIsReported) {
  const testing::CommandResult r =
      check_with("default_scenario: \"double_lane_change\"", "default_scenario: \"no_such\"");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("default_scenario: no scenario \"no_such\""), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("double_lane_change"), std::string::npos) << r.output;  // the list
  // Consistent with the exit status: located, counted, and no "OK" for the rig (issue 42)
  EXPECT_NE(r.output.find(at_line_of("default_scenario: \"no_such\"") + "1: default_scenario:"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("FAILED "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("OK "), std::string::npos) << r.output;
}

TEST(HilsimCheck, PrintShowsTheResolvedRigAndItsChannels) {
  const testing::CommandResult r =
      run_hilsim("check " + (kRigs / "ravon" / "rig.pbtxt").string() + " --print");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("default_scenario: \"double_lane_change\""), std::string::npos);
  EXPECT_NE(r.output.find("dbc: \"" + (kRigs / "ravon" / "ravon.dbc").string() + "\""),
            std::string::npos)
      << r.output;  // made absolute
  EXPECT_NE(r.output.find("#   vehicle.brake.park [-] input"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("#   vehicle.battery.soc [-] output"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("#   can.ecu.ecu_steer.timeout [-] output"), std::string::npos)
      << r.output;
}

TEST(HilsimCheck, AScenarioByNameAndADefaultScenarioRelativeToTheRigFile) {
  const testing::CommandResult by_name =
      run_hilsim("check " + (kRigs / "hmmwv" / "rig.pbtxt").string() + " --scenario hill_start");
  EXPECT_EQ(by_name.status, 0) << by_name.output;
  EXPECT_NE(by_name.output.find("hill_start.pbtxt on"), std::string::npos) << by_name.output;

  // A rig elsewhere naming its own scenario by a path relative to itself
  const config::testing::TempDir dir;
  fs::create_directories(dir.path() / "rig");
  fs::copy_file(kRigs / "ravon" / "ravon.dbc", dir.path() / "rig" / "ravon.dbc");
  fs::copy_file(kRigs / "scenarios" / "straight_accel_brake.pbtxt", dir.path() / "mine.pbtxt");
  std::string rig = read_text(kRigs / "ravon" / "rig.pbtxt");
  const std::string shipped = "default_scenario: \"double_lane_change\"";
  rig.replace(rig.find(shipped), shipped.size(), "default_scenario: \"../mine.pbtxt\"");
  std::ofstream(dir.path() / "rig" / "rig.pbtxt") << rig;
  const testing::CommandResult r =
      run_hilsim("check " + (dir.path() / "rig" / "rig.pbtxt").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("mine.pbtxt on"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace hil::tools

namespace hil::tools {
namespace {

TEST(HilsimVersion, NamesTheVersionTheGitRevisionAndTheBuild) {
  const testing::CommandResult r = testing::run_hilsim("--version");
  EXPECT_EQ(r.status, 0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.output, m,
      std::regex(
          R"(^hilsim \d+\.\d+\.\d+ \(git (([0-9a-f]{12})(\+dirty)?|unknown), \w+ build\)\n$)")))
      << r.output;
  // The revision the binary was built from (taken at build time, not at configure time)
  const testing::CommandResult head = io::testing::run_command(
      "git -C " + std::string(HIL_SOURCE_DIR) + " rev-parse --short=12 HEAD");
  if (head.status == 0 && m[1] != "unknown") {
    EXPECT_EQ(m[2].str() + "\n", head.output) << "rebuild: the binary predates HEAD";
  }
  const testing::CommandResult none = testing::run_hilsim("");
  EXPECT_NE(none.status, 0);
  EXPECT_NE(none.output.find("A subcommand is required"), std::string::npos) << none.output;
}

}  // namespace
}  // namespace hil::tools
