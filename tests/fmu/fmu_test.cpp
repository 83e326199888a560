// FMU import, standalone (issue 18): the first-order test FMU (tests/fmu/first_order) built as
// FMI 2.0 and FMI 3.0, read by `fmu info`, and `fmu simulate` against the closed form
// y(t) = x0 + (k·u − x0)·(1 − e^(−t/T)); inputs from a CSV; a doStep that fails; and the bad
// FMUs a user meets — not a zip, no model description, no binary for this platform, FMI 1.0, an
// unknown variable — each a clear error naming what is wrong.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/fmu/fmu.hpp"
#include "io/fmu/model_description.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/fmu/fmu_simulate.hpp"

namespace hil::io::fmu {
namespace {

namespace fs = std::filesystem;
using config::testing::TempDir;

std::string fmu_file(int version) {
  return fmt::format("{}/first_order_fmi{}.fmu", HIL_FMU_DIR, version);
}

testing::CommandResult hilsim(const std::string& args, bool with_stderr = true) {
  return testing::run_command(std::string(HILSIM_BINARY) + " " + args, with_stderr);
}

std::vector<std::vector<double>> parse_csv(const std::string& text, std::string* header) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (header != nullptr) *header = line;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) row.push_back(std::stod(f));
    rows.push_back(row);
  }
  return rows;
}

class FirstOrderFmu : public ::testing::TestWithParam<int> {};

TEST_P(FirstOrderFmu, InfoListsVariablesCapabilitiesAndTheDefaultExperiment) {
  const auto run = hilsim("fmu info " + fmu_file(GetParam()));
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string& s = run.output;
  EXPECT_NE(s.find(fmt::format("first_order: FMI {}.0 co-simulation", GetParam())),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(GetParam() == 2 ? "platforms: linux64" : "platforms: x86_64-linux"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("default experiment: start 0 s, stop 3 s, step 0.01 s"), std::string::npos) << s;
  EXPECT_NE(s.find("variables (8):"), std::string::npos) << s;
  EXPECT_NE(s.find(" T  "), std::string::npos) << s;
  EXPECT_NE(s.find("parameter"), std::string::npos) << s;
  EXPECT_NE(s.find("[s] time constant"), std::string::npos) << s;
}

TEST_P(FirstOrderFmu, SimulateMatchesTheClosedForm) {
  const TempDir dir;
  const fs::path out = dir.path() / "y.csv";
  const auto run = hilsim(fmt::format(
      "fmu simulate {} --stop-time 2 --step 0.01 --set T=0.25 --set k=2 --set x0=0.5 --output {}",
      fmu_file(GetParam()), out.string()));
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  std::string header;
  const auto rows = parse_csv(text.str(), &header);
  EXPECT_EQ(header, "\"time\",\"y\"");  // the reference results' CSV
  ASSERT_EQ(rows.size(), 201U);
  double worst = 0.0;
  for (const auto& r : rows) {
    const double t = r[0];
    const double exact = 0.5 + (2.0 * 1.0 - 0.5) * (1.0 - std::exp(-t / 0.25));
    worst = std::max(worst, std::abs(r[1] - exact));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_EQ(rows.back()[0], 2.0);
}

TEST_P(FirstOrderFmu, InputsComeFromACsvLinearBetweenRows) {
  const TempDir dir;
  const fs::path input = dir.write("u.csv", "time,u\n0,0\n1,0\n1.0001,4\n3,4\n");
  const auto run = hilsim(fmt::format("fmu simulate {} --stop-time 3 --step 0.5 --input {}",
                                      fmu_file(GetParam()), input.string()),
                          false);  // the CSV alone: the FMU's log lines go to stderr
  ASSERT_EQ(run.status, 0) << run.output;
  const auto rows = parse_csv(run.output, nullptr);
  ASSERT_EQ(rows.size(), 7U);
  // u is set at each step's start and held over it: 0 at 0, 0.5 and 1 s, then 4 from 1.5 s
  EXPECT_EQ(rows[3][1], 0.0);  // y(1.5)
  EXPECT_NEAR(rows[4][1], 4.0 * (1.0 - std::exp(-1.0)), 1e-12);
  EXPECT_NEAR(rows[6][1], 4.0 * (1.0 - std::exp(-3.0)), 1e-12);
}

TEST_P(FirstOrderFmu, AStepThatFailsIsAnErrorWithItsTime) {
  const auto run =
      hilsim(fmt::format("fmu simulate {} --stop-time 1 --step 0.1 --set "
                         "fail_after=4",
                         fmu_file(GetParam())));
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("error: doStep at t = 0.30000000000000004 s failed with status 3 "
                            "(error)"),
            std::string::npos)
      << run.output;
}

INSTANTIATE_TEST_SUITE_P(Fmi, FirstOrderFmu, ::testing::Values(2, 3),
                         [](const auto& p) { return fmt::format("fmi{}", p.param); });

TEST(FmuErrors, EveryBadFmuIsNamedWithWhatIsWrong) {
  const TempDir dir;
  const auto expect_error = [&](const std::string& file, const std::string& part) {
    const auto run = hilsim("fmu info " + file);
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_NE(run.output.find(part), std::string::npos) << run.output;
  };
  expect_error(dir.write("text.fmu", "not a zip").string(),
               "text.fmu: not an FMU: cannot open it as a zip archive");
  expect_error((dir.path() / "missing.fmu").string(), "missing.fmu: no such file");

  const auto zip = [&](const std::string& name, const std::vector<std::string>& files) {
    const fs::path out = dir.path() / name;
    std::string list;
    for (const std::string& f : files) list += " " + f;
    const auto r = testing::run_command(fmt::format("cd {} && cmake -E tar cf {} --format=zip{}",
                                                    dir.path().string(), out.string(), list));
    EXPECT_EQ(r.status, 0) << r.output;
    return out.string();
  };
  dir.write("readme.txt", "hello");
  expect_error(zip("no_md.fmu", {"readme.txt"}),
               "no_md.fmu: no modelDescription.xml at the top of the archive");

  std::ifstream md_in(std::string(HIL_FMU_DIR) + "/first_order_fmi2/modelDescription.xml");
  std::stringstream md;
  md << md_in.rdbuf();
  dir.write("modelDescription.xml", md.str());
  expect_error(zip("no_binary.fmu", {"modelDescription.xml"}),
               "no_binary.fmu: no binary for this platform: expected "
               "binaries/linux64/first_order.so; the FMU has no binaries (a source-only FMU)");

  std::string v1 = md.str();
  v1.replace(v1.find("fmiVersion=\"2.0\""), 16, "fmiVersion=\"1.0\"");
  dir.write("modelDescription.xml", v1);
  expect_error(zip("fmi1.fmu", {"modelDescription.xml"}),
               "fmi1.fmu/modelDescription.xml:2:1: fmiVersion=\"1.0\": FMI 1.0 is not supported");

  const auto unknown = hilsim(fmt::format("fmu simulate {} --set x_0=1", fmu_file(2)));
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("--set: no variable \"x_0\" in first_order; did you mean \"x0\"?"),
            std::string::npos)
      << unknown.output;
  const auto output_set = hilsim(fmt::format("fmu simulate {} --set y=1", fmu_file(2)));
  EXPECT_NE(output_set.output.find(
                "\"y\" has causality output; only parameters, structural parameters and inputs are "
                "set"),
            std::string::npos)
      << output_set.output;
}

TEST(ModelDescription, MalformedXmlIsLocated) {
  try {
    (void)parse_model_description(
        "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"2.0\"\n  <x/>", "m.xml");
    ADD_FAILURE();
  } catch (const FmuError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("m.xml:3:", 0), 0U) << e.what();
  }
  try {
    (void)parse_model_description(
        "<fmiModelDescription fmiVersion=\"3.0\">\n<ModelVariables>\n"
        "<Float64 name=\"a\" valueReference=\"x\"/>\n</ModelVariables></fmiModelDescription>",
        "m.xml");
    ADD_FAILURE();
  } catch (const FmuError& e) {
    EXPECT_STREQ(e.what(),
                 "m.xml:3:1: variable \"a\": valueReference=\"x\" is no unsigned integer");
  }
}

}  // namespace
}  // namespace hil::io::fmu
