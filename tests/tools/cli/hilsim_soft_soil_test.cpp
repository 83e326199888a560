// The HMMWV on Bekker–Wong soft soil through the CLI (docs/models.md "Soft soil (Bekker–Wong)"):
// the documented failure — the sand course with a soil too weak for it (Wong's clayey soil at
// 55 % moisture) — fails the not_bogged_down gate, which says it bogged down with the sinkage
// and slip; a soft-soil run replays identical.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools {
namespace {

namespace fs = std::filesystem;
using testing::run_hilsim;

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// hil_rigs/scenarios/hmmwv_soft_sand.pbtxt with another soil, written into `dir`.
fs::path sand_course_on(const fs::path& dir, const std::string& soil) {
  std::string text = text_of(fs::path(HIL_SOURCE_DIR) / "hil_rigs/scenarios/hmmwv_soft_sand.pbtxt");
  const std::string from = "soil: \"dry_sand\"";
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, from.size(), "soil: \"" + soil + "\"");
  const fs::path file = dir / ("course_on_" + soil + ".pbtxt");
  std::ofstream(file) << text;
  return file;
}

TEST(SoftSoil, TooWeakASoilBogsTheHmmwvDownAndTheGateSaysSo) {
  const config::testing::TempDir dir;
  const fs::path scenario = sand_course_on(dir.path(), "clayey_soil_wet");
  const testing::CommandResult r = run_hilsim("run --rig hmmwv --scenario " + scenario.string() +
                                              " --speed max --no-rt --console off --no-record -q");
  EXPECT_EQ(r.status, 4) << r.output;  // the scenario's pass criteria failed
  EXPECT_NE(r.output.find("[FAIL] does not bog down: bogged down at"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("with the wheels spinning (mean slip"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("; sinkage 0."), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[FAIL] crosses the sand"), std::string::npos) << r.output;
}

TEST(SoftSoil, SnowLetsTheWheelsSinkBeyondTheLimit) {
  const config::testing::TempDir dir;
  const fs::path scenario = sand_course_on(dir.path(), "snow");
  const testing::CommandResult r = run_hilsim("run --rig hmmwv --scenario " + scenario.string() +
                                              " --speed max --no-rt --console off --no-record -q");
  EXPECT_EQ(r.status, 4) << r.output;
  EXPECT_NE(r.output.find("a wheel sank 0.2"), std::string::npos) << r.output;
}

TEST(SoftSoil, ASandRunReplaysIdentical) {
  const config::testing::TempDir dir;
  const fs::path run = dir.path() / "sand";
  const testing::CommandResult r = run_hilsim(
      "run --rig hmmwv --scenario hmmwv_soft_sand --speed max --no-rt --console off "
      "-q --duration 12s --record " +
      run.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const testing::CommandResult replay = run_hilsim("replay " + run.string() + " -q --console off");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_EQ(replay.output.rfind("identical: ", 0), 0U) << replay.output;
}

}  // namespace
}  // namespace hil::tools
