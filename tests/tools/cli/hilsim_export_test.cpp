// `hilsim export` as a user runs it on a recorded run directory: CSV files, headers, values,
// channel globs, truncated and damaged files, missing inputs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/io/record/recording_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools {
namespace {

namespace fs = std::filesystem;
using io::record::testing::value_of;

using hil::tools::testing::CommandResult;

CommandResult hilsim(const std::string& args) { return hil::tools::testing::run_hilsim(args); }

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<double> fields(const std::string& line) {
  std::vector<double> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(std::stod(f));
  return out;
}

class HilsimExport : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(run_dir());
    io::record::testing::record_file(table_, run_dir() / "telemetry.mcap",
                                     {.ticks = kTicks, .period_ns = 250'000});  // 4 kHz → 1 kHz
  }
  fs::path run_dir() const { return dir_.path() / "runs" / "bench-20250101T000000Z"; }
  fs::path out() const { return dir_.path() / "out"; }

  static constexpr std::int64_t kTicks = 4000;
  config::testing::TempDir dir_;
  io::record::testing::VehicleTable table_;
};

TEST_F(HilsimExport, WritesOneCsvPerGroupWithTimeTickAndEveryChannel) {
  const CommandResult run = hilsim("export " + run_dir().string() + " --csv " + out().string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("exported 4000 rows of 7 channels in 4 CSV files and 2 events"),
            std::string::npos)
      << run.output;
  const auto rows = lines_of(out() / "vehicle.wheel.fl.csv");
  ASSERT_EQ(rows.size(), 1 + 1000U);  // every 4th tick
  EXPECT_EQ(rows[0],
            "time_s,tick,vehicle.wheel.fl.speed,vehicle.wheel.fl.slip,vehicle.wheel.fl.speed_ref");
  const auto row = fields(rows[1 + 250]);  // tick 1000: t = 0.25 s
  EXPECT_EQ(row[0], 0.25);
  EXPECT_EQ(row[1], 1000);
  EXPECT_EQ(row[2], value_of(1000, table_.resolve("vehicle.wheel.fl.speed").index));
  EXPECT_EQ(row[4], value_of(1000, table_.resolve("vehicle.wheel.fl.speed_ref").index));
  EXPECT_EQ(lines_of(out() / "rt.loop.csv")[0], "time_s,tick,rt.loop.tick");
  const auto events = lines_of(out() / "events.csv");
  ASSERT_EQ(events.size(), 3U);
  EXPECT_EQ(events[2], "0.99975,3999,fault,vehicle.battery.voltage stuck at 0");
}

TEST_F(HilsimExport, ChannelGlobsSelectColumnsAndSkipGroupsWithoutAMatch) {
  const CommandResult run = hilsim("export " + run_dir().string() + " --csv " + out().string() +
                                   " --channels 'vehicle.wheel.*.speed'");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(lines_of(out() / "vehicle.wheel.fr.csv")[0], "time_s,tick,vehicle.wheel.fr.speed");
  EXPECT_EQ(lines_of(out() / "vehicle.wheel.fl.csv")[0], "time_s,tick,vehicle.wheel.fl.speed");
  EXPECT_FALSE(fs::exists(out() / "vehicle.battery.csv"));

  const CommandResult none = hilsim("export " + run_dir().string() + " --csv " + out().string() +
                                    " --channels 'vehicle.engine.*'");
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.output.find("no channel matches --channels 'vehicle.engine.*'"), std::string::npos)
      << none.output;
}

TEST_F(HilsimExport, ATruncatedFileIsExportedUpToItsLastCompleteRecordWithAWarning) {
  const fs::path file = run_dir() / "telemetry.mcap";
  fs::resize_file(file, fs::file_size(file) / 2);  // what a SIGKILL leaves, and then some
  const CommandResult run = hilsim("export " + run_dir().string() + " --csv " + out().string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("is truncated"), std::string::npos) << run.output;
  const auto rows = lines_of(out() / "vehicle.battery.csv");
  ASSERT_GT(rows.size(), 100U);
  ASSERT_LT(rows.size(), 1001U);
  const auto last = fields(rows.back());  // the last row is whole and right
  ASSERT_EQ(last.size(), 3U);
  EXPECT_EQ(last[2], value_of(static_cast<std::int64_t>(last[1]),
                              table_.resolve("vehicle.battery.voltage").index));
}

TEST_F(HilsimExport, ADamagedFileFailsNamingTheDamage) {
  const fs::path file = run_dir() / "telemetry.mcap";
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
    f.put('\x55').put('\x55').put('\x55');
  }
  const CommandResult run = hilsim("export " + run_dir().string() + " --csv " + out().string());
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("is damaged"), std::string::npos) << run.output;
}

TEST_F(HilsimExport, MissingInputsAreNamed) {
  CommandResult run =
      hilsim("export " + (dir_.path() / "nope").string() + " --csv " + out().string());
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("does not exist"), std::string::npos) << run.output;
  run = hilsim("export " + dir_.path().string() + " --csv " + out().string());
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("has no telemetry.mcap"), std::string::npos) << run.output;
  run = hilsim("export " + run_dir().string());
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--csv DIR or --blf FILE is required"), std::string::npos)
      << run.output;
}

}  // namespace
}  // namespace hil::tools
