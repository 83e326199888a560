// `hilsim replay --tolerance` (issue 17): runs recorded by the hilsim before the model's
// arithmetic changed (tests/tools/cli/runs_recorded_before_vector_math) replay within the
// documented tolerance, though not bit for bit; a real change of the physics, or a tolerance
// tighter than the change, is still a divergence; the report names the channels that differ
// most. docs/performance.md "Replaying older runs". A replay runs the vehicle's arithmetic its
// run ran (manifest "vehicle_math"; docs/recording.md).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools {
namespace {

namespace fs = std::filesystem;
using testing::run_hilsim;

/// The tolerance docs/performance.md documents for runs recorded before the change.
constexpr double kDocumentedTolerance = 1e-9;
constexpr const char* kToleranceOption = "--tolerance 1e-9";

/// A copy of a recorded fixture run (replay must not write into the source tree).
class RecordedBefore : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    fs::copy(
        fs::path(HIL_SOURCE_DIR) / "tests/tools/cli/runs_recorded_before_vector_math" / GetParam(),
        run_, fs::copy_options::recursive);
  }
  nlohmann::json replay(const std::string& options, int expected_status) {
    const fs::path report = dir_.path() / "report.json";
    const testing::CommandResult r = run_hilsim("replay " + run_.string() + " -q --console off " +
                                                options + " --report " + report.string());
    output_ = r.output;
    EXPECT_EQ(r.status, expected_status) << r.output;
    std::ifstream in(report);
    return nlohmann::json::parse(in);
  }
  config::testing::TempDir dir_;
  fs::path run_ = dir_.path() / "run";
  std::string output_;
};

TEST_P(RecordedBefore, ReplaysWithinTheDocumentedToleranceButNotBitForBit) {
  const nlohmann::json report = replay(kToleranceOption, /*expected_status=*/0);
  EXPECT_NE(output_.find("within tolerance 1e-09: "), std::string::npos) << output_;
  EXPECT_FALSE(report["identical"].get<bool>());  // the arithmetic did change
  EXPECT_TRUE(report["within_tolerance"].get<bool>());
  EXPECT_EQ(report["frames_differing"], 0);  // no CAN signal moved by one bit
  EXPECT_GT(report["values_differing"].get<int>(), 0);
  ASSERT_FALSE(report["deviations"].empty());
  const nlohmann::json& largest = report["deviations"][0];
  EXPECT_LE(largest["relative"].get<double>(), kDocumentedTolerance) << largest.dump();
  EXPECT_GT(largest["relative"].get<double>(), 0.0);
  // Every channel listed, largest first
  double previous = largest["relative"].get<double>();
  for (const nlohmann::json& d : report["deviations"]) {
    EXPECT_LE(d["relative"].get<double>(), previous) << d.dump();
    previous = d["relative"].get<double>();
  }
}

TEST_P(RecordedBefore, WithoutAToleranceItDivergesAndSaysByHowMuch) {
  const nlohmann::json report = replay("", /*expected_status=*/1);
  EXPECT_NE(output_.find("DIVERGED at tick "), std::string::npos) << output_;
  EXPECT_NE(output_.find("largest deviations (relative to the channel's largest recorded value)"),
            std::string::npos)
      << output_;
  EXPECT_FALSE(report["within_tolerance"].get<bool>());
  EXPECT_FALSE(report.contains("tolerance"));
}

TEST_P(RecordedBefore, AToleranceTighterThanTheChangeIsADivergence) {
  const nlohmann::json report = replay("--tolerance 1e-16", /*expected_status=*/1);
  EXPECT_NE(output_.find("beyond the tolerance 1e-16"), std::string::npos) << output_;
  EXPECT_FALSE(report["within_tolerance"].get<bool>());
  EXPECT_EQ(report["tolerance"], 1e-16);
}

TEST_P(RecordedBefore, AChangedPhysicsIsBeyondTheTolerance) {
  // 0.1 % more gravity: a real difference, not rounding
  const fs::path heavier = dir_.path() / "heavier.pbtxt";
  std::ofstream(heavier) << "vehicle { gravity: 9.8165 }\n";
  const nlohmann::json report = replay("--override " + heavier.string() + " " + kToleranceOption,
                                       /*expected_status=*/1);
  EXPECT_FALSE(report["within_tolerance"].get<bool>());
  EXPECT_GT(report["deviations"][0]["relative"].get<double>(), 1e-6) << output_;
}

TEST_P(RecordedBefore, IgnoredChannelsAreReportedButNotJudged) {
  const nlohmann::json report = replay("--tolerance 1e-16 --ignore 'vehicle.*'",
                                       /*expected_status=*/0);
  EXPECT_TRUE(report["within_tolerance"].get<bool>());
  for (const nlohmann::json& d : report["deviations"]) {
    EXPECT_TRUE(d["ignored"].get<bool>()) << d.dump();
  }
  EXPECT_NE(output_.find("(ignored)"), std::string::npos) << output_;
}

INSTANTIATE_TEST_SUITE_P(Rigs, RecordedBefore, ::testing::Values("ravon", "hmmwv"));

/// A short RAVON run recorded by this build, and its manifest's `vehicle_math` set to `math`.
class VehicleMath : public ::testing::Test {
 protected:
  void SetUp() override {
    const testing::CommandResult r =
        run_hilsim("run --rig ravon --duration 2s --speed max --no-rt --console off -q --record " +
                   run_.string());
    ASSERT_EQ(r.status, 0) << r.output;
  }
  nlohmann::json manifest() const {
    std::ifstream in(run_ / "manifest.json");
    return nlohmann::json::parse(in);
  }
  void record_as(const std::string& math) const {
    nlohmann::json j = manifest();
    j["vehicle_math"] = math;
    std::ofstream(run_ / "manifest.json") << j.dump(2) << "\n";
  }
  testing::CommandResult replay(const std::string& options = "") const {
    return run_hilsim("replay " + run_.string() + " -q --console off " + options);
  }
  config::testing::TempDir dir_;
  fs::path run_ = dir_.path() / "run";
};

TEST_F(VehicleMath, TheManifestSaysWhichBuildRanAndItsReplayIsIdentical) {
  const std::string math = manifest().value("vehicle_math", "");
  EXPECT_TRUE(math == "avx2-fma" || math == "sse2-pairs") << math;
  const testing::CommandResult r = replay();
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("identical: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("note: the run's vehicle ran"), std::string::npos) << r.output;
}

TEST_F(VehicleMath, AReplayServesAConsoleOnlyWhenAskedFor) {
  const testing::CommandResult plain = run_hilsim("replay " + run_.string() + " -q");
  EXPECT_EQ(plain.status, 0) << plain.output;
  EXPECT_EQ(plain.output.find("console:"), std::string::npos) << plain.output;
  const testing::CommandResult off = replay();  // --console off: still accepted
  EXPECT_EQ(off.status, 0) << off.output;
  EXPECT_EQ(off.output.find("console:"), std::string::npos) << off.output;
  const testing::CommandResult asked =
      run_hilsim("replay " + run_.string() + " -q --console 127.0.0.1:0");
  EXPECT_EQ(asked.status, 0) << asked.output;
  EXPECT_NE(asked.output.find("console: http://127.0.0.1:"), std::string::npos) << asked.output;
}

TEST_F(VehicleMath, ARunByPairsReplaysByPairs) {
  if (manifest().value("vehicle_math", "") != "avx2-fma") {
    GTEST_SKIP() << "this CPU runs the vehicle by pairs only: nothing to choose";
  }
  // Told that the run ran by pairs, the replay runs by pairs: no note, and the four-lane
  // values it recorded differ in their last bits, within the documented tolerance
  record_as("sse2-pairs");
  const testing::CommandResult exact = replay();
  EXPECT_EQ(exact.status, 1) << exact.output;
  EXPECT_EQ(exact.output.find("note: the run's vehicle ran"), std::string::npos) << exact.output;
  const testing::CommandResult within = replay(kToleranceOption);
  EXPECT_EQ(within.status, 0) << within.output;
  EXPECT_NE(within.output.find("within tolerance 1e-09: "), std::string::npos) << within.output;
}

TEST_F(VehicleMath, ABuildThisCpuCannotRunIsNamed) {
  record_as("avx1024-future");
  const testing::CommandResult r = replay();
  EXPECT_NE(r.output.find("note: the run's vehicle ran its avx1024-future build, this CPU runs "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("--tolerance 1e-9"), std::string::npos) << r.output;
  EXPECT_EQ(r.status, 0) << r.output;  // the same build ran after all: identical
}

TEST_F(VehicleMath, AManifestKeyOfTheWrongTypeIsNamed) {
  nlohmann::json j = manifest();
  j["vehicle_math"] = 5;  // a hand-edited manifest
  std::ofstream(run_ / "manifest.json") << j.dump(2) << "\n";
  const testing::CommandResult r = replay();
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("manifest.json: \"vehicle_math\" must be a string"), std::string::npos)
      << r.output;
}

TEST(ReplayTolerance, IgnoreNeedsATolerance) {
  const testing::CommandResult r = run_hilsim("replay /nonexistent --ignore 'vehicle.*'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--ignore requires --tolerance"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace hil::tools
