// `hilsim replay --tolerance` (issue 17): runs recorded by the hilsim before the model's
// arithmetic changed (tests/tools/cli/runs_recorded_before_vector_math) replay within the
// documented tolerance, though not bit for bit; a real change of the physics, or a tolerance
// tighter than the change, is still a divergence; the report names the channels that differ
// most. docs/performance.md "Replaying older runs".

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

TEST(ReplayTolerance, IgnoreNeedsATolerance) {
  const testing::CommandResult r = run_hilsim("replay /nonexistent --ignore 'vehicle.*'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--ignore requires --tolerance"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace hil::tools
