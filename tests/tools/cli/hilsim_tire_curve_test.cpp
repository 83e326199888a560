// `hilsim tire-curve` as a user runs it: CSV header, rows, values, errors.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tools/cli/cli_runner.hpp"

namespace {

using hil::tools::testing::CommandResult;

CommandResult hilsim(const std::string& args) { return hil::tools::testing::run_hilsim(args); }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<double> fields(const std::string& line) {
  std::vector<double> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(std::stod(f));
  return out;
}

TEST(HilsimTireCurve, PureLongitudinalDryCurveHasHeaderRowsAndTheMagicFormulaValues) {
  const CommandResult run = hilsim("tire-curve --surface dry --load 4000 --slip -1:1:0.01");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto rows = lines(run.output);
  ASSERT_EQ(rows.size(), 1 + 201);
  EXPECT_EQ(rows[0], "slip,slip_angle_rad,fx_n,fy_n");
  const auto at_0_1 = fields(rows[1 + 110]);  // s = 0.1: 4000·0.955842
  EXPECT_NEAR(at_0_1[0], 0.1, 1e-9);
  EXPECT_NEAR(at_0_1[2], 4000 * 0.955842, 0.01);
  EXPECT_EQ(at_0_1[3], 0.0);
  EXPECT_NEAR(fields(rows[1])[2], -fields(rows[201])[2], 1e-9);  // odd: s = −1 vs s = 1
}

TEST(HilsimTireCurve, ValuesRoundTripTheyAreNotCutToSixDigits) {
  const CommandResult run = hilsim("tire-curve --surface dry --load 4000 --slip 0.1:0.1:0.01");
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string row = lines(run.output).at(1);
  const std::string fx = row.substr(row.find(',', row.find(',') + 1) + 1,
                                    row.rfind(',') - row.find(',', row.find(',') + 1) - 1);
  std::size_t digits = 0;
  for (const char c : fx) digits += std::isdigit(static_cast<unsigned char>(c)) != 0 ? 1 : 0;
  EXPECT_GT(digits, 10U) << "fx printed as " << fx << ": shortest round-trip form, not %.6g";
  EXPECT_EQ(fmt::format("{}", std::stod(fx)), fx) << "reads back to the same double";
}

TEST(HilsimTireCurve, PureLateralIceCurveSaturatesAtTenPercentOfTheLoad) {
  const CommandResult run = hilsim("tire-curve --surface ice --load 4000 --slip-angle 0:1.5:0.5");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto rows = lines(run.output);
  ASSERT_EQ(rows.size(), 1 + 4);
  const auto last = fields(rows[4]);
  EXPECT_EQ(last[0], 0.0);
  EXPECT_NEAR(last[1], 1.5, 1e-9);
  EXPECT_NEAR(last[3], -400.0 * (1 - std::exp(-1.5 / 0.09)), 1e-3);
}

TEST(HilsimTireCurve, CombinedGridAndSoils) {
  CommandResult run =
      hilsim("tire-curve --surface wet --load 3000 --slip 0:0.2:0.1 --slip-angle -0.1:0.1:0.05");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(lines(run.output).size(), 1 + 3 * 5);

  run = hilsim("tire-curve --surface sand --cone-index 600 --load 5000 --slip 0:1:0.5");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto rows = lines(run.output);
  ASSERT_EQ(rows.size(), 1 + 3);
  EXPECT_LT(fields(rows[1])[2], 0.0);  // zero slip on sand: motion resistance
  EXPECT_GT(fields(rows[3])[2], 0.0);

  run = hilsim(
      "tire-curve --surface clay --cone-index 500 --load 5000 --tire 0.3,0.8,0.18 "
      "--deflection 0.01 --slip 0:0:1");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(lines(run.output).size(), 2);
}

TEST(HilsimTireCurve, BadArgumentsSayWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"--surface dry --load 4000 --slip 0:1", "--slip: '0:1' is not FROM:TO:STEP"},
      {"--surface dry --load 4000 --slip 0:1:0", "STEP must be > 0"},
      {"--surface dry --load 4000 --slip 1:0:0.1", "FROM must not exceed TO"},
      {"--surface dry --load 4000 --slip 0:2:0.1", "out of range"},
      {"--surface dry --load 4000 --slip a:1:0.1", "must be numbers"},
      {"--surface dry --load 4000 --slip 0:1:1e-7", "more than 100000 points"},
      {"--surface dry --load 4000 --slip -1:1:0.001 --slip-angle -1.5:1.5:0.001",
       "more than 1000000"},
      {"--surface dry --load 4000", "--slip or --slip-angle"},
      {"--surface sand --load 4000 --slip 0:1:0.1", "--cone-index"},
      {"--surface mud --load 4000 --slip 0:1:0.1", "mud not in"},
  };
  for (const auto& [args, message] : cases) {
    const CommandResult run = hilsim(std::string("tire-curve ") + args);
    EXPECT_NE(run.status, 0) << args;
    EXPECT_NE(run.output.find(message), std::string::npos) << args << "\n" << run.output;
  }
}

TEST(HilsimTireCurve, HelpHasExamples) {
  const CommandResult run = hilsim("tire-curve --help");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.output.find("Examples:"), std::string::npos);
  EXPECT_NE(run.output.find("hilsim tire-curve --surface sand"), std::string::npos);
}

}  // namespace
