// FMI conformance of `hilsim fmu simulate` (issue 40), against the test FMUs' closed forms with
// the expected CSV computed here: the end of the simulation the FMU asks for (stair, FMI 2's
// fmi2Discard + fmi2Terminated and FMI 3's terminateSimulation), every variable type through
// --set, an input CSV with fmusim's semantics and the output CSV (feedthrough), FMI 3 arrays
// sized by a structural parameter (arrays), the default experiment and the output interval.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/fmu/hilsim_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::session {
namespace {

namespace fs = std::filesystem;
using fmu_testing::read_text;
using hil::config::testing::TempDir;

/// `hilsim ARGS`; with_stderr false: stdout alone (the FMUs' log lines go to stderr).
io::testing::CommandResult hilsim(const std::string& args, bool with_stderr = true) {
  return io::testing::run_command(std::string(HILSIM_BINARY) + " " + args, with_stderr);
}

std::string fmu_file(const std::string& name) {
  return fmt::format("{}/{}.fmu", HIL_FMU_DIR, name);
}

/// CSV text as rows of fields (a quoted field may hold commas).
std::vector<std::vector<std::string>> rows_of(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row(1);
  bool quoted = false;
  for (const char c : csv) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      row.emplace_back();
    } else if (c == '\n' && !quoted) {
      rows.push_back(row);
      row.assign(1, "");
    } else {
      row.back() += c;
    }
  }
  return rows;
}

/// Compares `csv` with `expected` row by row, field by field.
void expect_rows(const std::string& csv, const std::vector<std::vector<std::string>>& expected) {
  const auto rows = rows_of(csv);
  ASSERT_EQ(rows.size(), expected.size()) << csv;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_EQ(rows[r], expected[r]) << "row " << r << " of\n" << csv;
  }
}

class Stair : public ::testing::TestWithParam<int> {};

// The FMU ends the simulation at stop_at = 5.25 s, inside the step from 5 to 5.5 s: the last
// row is there, and `fmu simulate` succeeds. The default experiment: 0 to 10 s, step 0.5 s.
TEST_P(Stair, TheFmuEndsTheSimulationAndTheLastRowIsWhereItStopped) {
  const TempDir dir;
  const fs::path out = dir.path() / "stair.csv";
  const auto r =
      hilsim(fmt::format("fmu simulate {} --output {}",
                         fmu_file(fmt::format("stair_fmi{}", GetParam())), out.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("11 steps, outputs in " + out.string() +
                          "; the FMU ended the simulation at 5.25 s"),
            std::string::npos)
      << r.output;
  std::vector<std::vector<std::string>> expected{{"\"time\"", "\"counter\"", "\"t_fmu\""}};
  std::vector<double> times;
  for (int k = 0; 0.5 * k < 5.25; ++k) times.push_back(0.5 * k);
  times.push_back(5.25);
  for (const double t : times) {
    expected.push_back({fmt::format("{:.16g}", t),
                        fmt::format("{}", 1 + static_cast<int>(std::floor(t))),
                        fmt::format("{}", t)});
  }
  expect_rows(read_text(out), expected);
}

TEST_P(Stair, WithoutAnEndItRunsToTheStopTimeWithTheEndRow) {
  const auto r = hilsim(fmt::format("fmu simulate {} --set stop_at=0 --stop-time 3",
                                    fmu_file(fmt::format("stair_fmi{}", GetParam()))),
                        false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = rows_of(r.output);
  ASSERT_EQ(rows.size(), 8U) << r.output;  // header, 0 … 3 s every 0.5 s
  EXPECT_EQ(rows.back(), (std::vector<std::string>{"3", "4", "3"}));
}

// FMI 3 early return: allowed, the stair returns at each whole second it steps past; a row is
// written there and the next step starts there (fmusim's FMI3CSSimulate)
TEST(StairEarlyReturn, ARowWhereTheFmuReturnedEarly) {
  const auto r = hilsim(fmt::format("fmu simulate {} --stop-time 3 --step 0.75 --early-return",
                                    fmu_file("stair_fmi3")),
                        false);
  ASSERT_EQ(r.status, 0) << r.output;
  std::vector<std::vector<std::string>> expected{{"\"time\"", "\"counter\"", "\"t_fmu\""}};
  for (const double t : {0.0, 0.75, 1.0, 1.5, 2.0, 2.25, 3.0}) {
    expected.push_back({fmt::format("{:.16g}", t),
                        fmt::format("{}", 1 + static_cast<int>(std::floor(t + 1e-9))),
                        fmt::format("{}", t)});
  }
  expect_rows(r.output, expected);
  // Not allowed (the default): the FMU steps the whole step
  const auto whole = hilsim(
      fmt::format("fmu simulate {} --stop-time 3 --step 0.75", fmu_file("stair_fmi3")), false);
  EXPECT_EQ(rows_of(whole.output).size(), 6U) << whole.output;  // header, 0 … 3 every 0.75 s
}

INSTANTIATE_TEST_SUITE_P(Fmi, Stair, ::testing::Values(2, 3),
                         [](const auto& p) { return fmt::format("fmi{}", p.param); });

/// An input table and fmusim's reading of it (FMIStaticInput.c): continuous columns linear
/// (after an event at t: the later segment), the others the last row at or before t.
struct InputTable {
  std::vector<std::string> names;
  std::vector<bool> continuous;
  std::vector<double> times;
  std::vector<std::vector<std::string>> cells;

  [[nodiscard]] std::string csv() const {
    std::string out = "time";
    for (const std::string& n : names) out += "," + n;
    out += "\n";
    for (std::size_t r = 0; r < times.size(); ++r) {
      out += fmt::format("{}", times[r]);
      for (const std::string& c : cells[r]) out += "," + c;
      out += "\n";
    }
    return out;
  }
  /// The inputs applied at a step starting at t (after an event at t).
  [[nodiscard]] std::vector<std::string> at(double t) const {
    std::size_t row = 0;
    while (row + 1 < times.size() && times[row + 1] <= t) ++row;
    std::vector<std::string> out = cells[row];
    for (std::size_t c = 0; c < names.size(); ++c) {
      if (!continuous[c] || row + 1 >= times.size()) continue;
      const double x0 = std::stod(cells[row][c]);
      const double x1 = std::stod(cells[row + 1][c]);
      out[c] = fmt::format("{}", x0 + (t - times[row]) * (x1 - x0) / (times[row + 1] - times[row]));
    }
    return out;
  }
  /// Times where an input jumps: a repeated time, or a discrete column that changes.
  [[nodiscard]] std::vector<double> events() const {
    std::vector<double> out;
    for (std::size_t r = 0; r + 1 < times.size(); ++r) {
      bool jump = times[r] == times[r + 1];
      for (std::size_t c = 0; c < names.size(); ++c) {
        jump = jump || (!continuous[c] && cells[r][c] != cells[r + 1][c]);
      }
      if (jump) out.push_back(times[r + 1]);
    }
    return out;
  }
};

/// The feedthrough's outputs for inputs `in` (feedthrough.h): gain·x, offset + n, param + s.
std::vector<std::string> feedthrough(const InputTable& table, const std::vector<std::string>& in,
                                     double gain, int offset, const std::string& param) {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < in.size(); ++c) {
    const std::string& name = table.names[c];
    if (name == "float64_in") {
      out.push_back(fmt::format("{}", gain * std::stod(in[c])));
    } else if (name == "float32_in") {
      out.push_back(fmt::format("{}", static_cast<float>(std::stod(in[c]))));
    } else if (name == "int32_in") {
      out.push_back(fmt::format("{}", std::stoi(in[c]) + offset));
    } else if (name == "string_in") {
      out.push_back("\"" + param + in[c].substr(1));  // in[c] is quoted
    } else {
      out.push_back(in[c]);
    }
  }
  return out;
}

/// Runs the feedthrough FMU on `table` and compares every row with the closed form: a row at
/// every 0.5 s and input event; the row at a communication point shows the inputs set at the
/// step's start (a co-simulation FMU's outputs come from its step).
void check_feedthrough(int version, const InputTable& table) {
  const TempDir dir;
  const fs::path in = dir.write("in.csv", table.csv());
  const auto r = hilsim(
      fmt::format("fmu simulate {} --input {} --set float64_gain=2 --set int32_offset=10 --set "
                  "string_param=x",
                  fmu_file(fmt::format("feedthrough_fmi{}", version)), in.string()),
      false);
  ASSERT_EQ(r.status, 0) << r.output;
  std::vector<std::string> header{"\"time\""};
  for (const std::string& n : table.names) {
    header.push_back("\"" + n.substr(0, n.size() - 3) + "_out\"");
  }
  std::vector<double> points;
  for (int k = 0; k <= 4; ++k) points.push_back(0.5 * k);
  for (const double e : table.events()) {
    if (std::find(points.begin(), points.end(), e) == points.end()) points.push_back(e);
  }
  std::sort(points.begin(), points.end());
  std::vector<std::vector<std::string>> expected{header};
  for (std::size_t k = 0; k < points.size(); ++k) {
    std::vector<std::string> row{fmt::format("{:.16g}", points[k])};
    const auto out = feedthrough(table, table.at(points[k == 0 ? 0 : k - 1]), 2.0, 10, "x");
    row.insert(row.end(), out.begin(), out.end());
    expected.push_back(row);
  }
  expect_rows(r.output, expected);
}

TEST(Feedthrough, EveryFmi3TypeInAndOutWithTheReferenceInputSemantics) {
  InputTable t;
  t.names = {"float64_in", "float64_discrete_in",
             "float32_in", "int8_in",
             "uint8_in",   "int16_in",
             "uint16_in",  "int32_in",
             "uint32_in",  "int64_in",
             "uint64_in",  "bool_in",
             "string_in",  "binary_in",
             "enum_in"};
  t.continuous = {true,  false, true,  false, false, false, false, false,
                  false, false, false, false, false, false, false};
  const std::vector<std::string> low{"0",      "1", "0",     "-128", "0",
                                     "-32768", "0", "-5",    "0",    "-9223372036854775808",
                                     "0",      "0", "\"a\"", "00ff", "1"};
  std::vector<std::string> high{"2",
                                "1",
                                "4",
                                "127",
                                "255",
                                "32767",
                                "65535",
                                "7",
                                "4294967295",
                                "9223372036854775807",
                                "18446744073709551615",
                                "1",
                                "\"b,c\"",
                                "0a0b",
                                "3"};
  std::vector<std::string> after = high;  // the event at 1 s: the later row
  after[0] = "6";
  after[1] = "3";
  after[2] = "8";
  std::vector<std::string> late = after;  // a discrete change off the output grid
  late[3] = "5";
  t.times = {0.0, 1.0, 1.0, 1.25, 2.0};
  t.cells = {low, high, after, late, late};
  check_feedthrough(3, t);
}

TEST(Feedthrough, EveryFmi2TypeInAndOut) {
  InputTable t;
  t.names = {"float64_in", "float64_discrete_in", "int32_in", "bool_in", "string_in", "enum_in"};
  t.continuous = {true, false, false, false, false, false};
  t.times = {0.0, 0.75, 2.0};
  t.cells = {{"1", "0.5", "-3", "0", "\"p\"", "2"},
             {"3", "0.25", "4", "1", "\"q\"", "3"},
             {"-1", "0.25", "4", "1", "\"q\"", "3"}};
  check_feedthrough(2, t);
}

TEST(Feedthrough, AValueThatIsNoValueOfItsTypeIsRefused) {
  const auto r =
      hilsim(fmt::format("fmu simulate {} --set int8_in=300", fmu_file("feedthrough_fmi3")));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("error: --set int8_in=300: \"300\" is no Int8 value"), std::string::npos)
      << r.output;
  const TempDir dir;
  const fs::path in = dir.write("in.csv", "time,bool_in\n0,0\n1,maybe\n");
  const auto bad =
      hilsim(fmt::format("fmu simulate {} --input {}", fmu_file("feedthrough_fmi3"), in.string()));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find(in.string() + ":3: column 2: \"maybe\" is no Boolean value"),
            std::string::npos)
      << bad.output;
}

// y_i(t) = g_i·u_i·(1 − exp(−t/T)) at every 0.25 s; the structural parameter n sizes the arrays
void check_arrays(const std::string& options, const std::vector<double>& gains,
                  const std::vector<double>& u) {
  const auto r = hilsim(fmt::format("fmu simulate {} {}", fmu_file("arrays_fmi3"), options), false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = rows_of(r.output);
  const std::size_t n = gains.size();
  std::vector<std::string> header{"\"time\""};
  for (std::size_t i = 0; i < n; ++i) header.push_back(fmt::format("\"y[{}]\"", i));
  header.insert(header.end(), {"\"y_sum\"", "\"shape[0]\"", "\"shape[1]\""});
  ASSERT_EQ(rows.size(), 10U) << r.output;  // 0 … 2 s every 0.25 s
  EXPECT_EQ(rows[0], header);
  for (std::size_t k = 0; k <= 8; ++k) {
    const auto& row = rows[k + 1];
    ASSERT_EQ(row.size(), n + 4) << r.output;
    const double t = 0.25 * static_cast<double>(k);
    EXPECT_EQ(std::stod(row[0]), t);
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double y = gains[i] * u[i] * (1.0 - std::exp(-t / 0.5));
      EXPECT_NEAR(std::stod(row[i + 1]), y, 1e-12) << "t = " << t << ", y[" << i << "]";
      sum += y;
    }
    EXPECT_NEAR(std::stod(row[n + 1]), sum, 1e-12);
    EXPECT_EQ(row[n + 2], fmt::format("{}", n));
    EXPECT_EQ(row[n + 3], fmt::format("{}", k));  // steps taken
  }
}

TEST(Arrays, Fmi3ArraysAtTheirStartSize) {
  check_arrays("--set u='1 0.5 2'", {1, 2, 3}, {1, 0.5, 2});
}

TEST(Arrays, AStructuralParameterResizesThemInConfigurationMode) {
  check_arrays("--set n=4 --set gains='1 2 3 4' --set u='1 1 1 2'", {1, 2, 3, 4}, {1, 1, 1, 2});
  const auto r =
      hilsim(fmt::format("fmu simulate {} --set n=4 --set u='1 1 1'", fmu_file("arrays_fmi3")));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--set u=1 1 1: 3 values; \"u\" has 4"), std::string::npos) << r.output;
}

// --step 0.01 with a row every 0.1 s: 21 rows of the closed form y = k·u·(1 − exp(−t/T))
TEST(OutputInterval, RowsAtEveryIntervalFromStartToStopInclusive) {
  const auto r = hilsim(
      fmt::format("fmu simulate {} --stop-time 2 --step 0.01 --output-interval 0.1 --set T=0.25",
                  fmu_file("first_order_fmi3")),
      /*with_stderr=*/false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = rows_of(r.output);
  ASSERT_EQ(rows.size(), 22U) << r.output;
  EXPECT_EQ(rows[0], (std::vector<std::string>{"\"time\"", "\"y\""}));
  for (std::size_t k = 0; k <= 20; ++k) {
    const double t = 0.1 * static_cast<double>(k);
    EXPECT_EQ(rows[k + 1][0], fmt::format("{:.16g}", t));
    EXPECT_NEAR(std::stod(rows[k + 1][1]), 1.0 - std::exp(-t / 0.25), 1e-12) << "t = " << t;
  }
}

}  // namespace
}  // namespace hil::session
