// FMUs in a rig (issue 18): the `fmus` block checked against the FMU's model description and
// the rig's channels with located errors; the first-order FMU in RAVON's loop, driven by the
// vehicle's speed and driving the wind, recorded as fmu.<instance>.<variable> and replayed
// identically; a doStep that fails sends the outputs to their safe values, counted in the summary.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "config/rig/loader.hpp"
#include "tests/fmu/hilsim_command.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::config {
namespace {

namespace fs = std::filesystem;
using fmu_testing::hilsim;
using fmu_testing::read_text;
using testing::TempDir;

constexpr const char* kRavon = HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt";

std::string fmu_file(int version) {
  return fmt::format("{}/first_order_fmi{}.fmu", HIL_FMU_DIR, version);
}

/// An overlay with one FMU block whose body is `body`.
std::string overlay(const std::string& body, int version = 3) {
  return fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"lag\"\n{}}}\n", fmu_file(version),
                     body);
}

std::vector<std::string> errors_of(const TempDir& dir, const std::string& text) {
  const LoadResult r = load_rig_config(kRavon, std::vector<fs::path>{dir.write("o.pbtxt", text)});
  std::vector<std::string> out;
  for (const ConfigError& e : r.errors) out.push_back(e.to_string());
  return out;
}

bool has(const std::vector<std::string>& errors, const std::string& part) {
  for (const std::string& e : errors) {
    if (e.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(FmuInARig, TheMappingIsCheckedAgainstTheModelDescriptionAndTheChannels) {
  const TempDir dir;
  const std::string ok = "  inputs { channel: \"vehicle.body.speed\" variable: \"u\" }\n";
  EXPECT_TRUE(errors_of(dir, overlay(ok)).empty()) << errors_of(dir, overlay(ok)).front();

  const auto e1 = errors_of(dir, overlay("  parameters { name: \"Tau\" value: 1 }\n"));
  EXPECT_TRUE(has(e1,
                  "o.pbtxt:4:22: fmus[0].parameters[0].name: no variable \"Tau\" in FMU "
                  "first_order; its parameters: T, k, x0, fail_after"))
      << ::testing::PrintToString(e1);
  const auto e2 =
      errors_of(dir, overlay("  inputs { channel: \"vehicle.body.sped\" variable: \"u\" }\n"));
  EXPECT_TRUE(has(e2,
                  "fmus[0].inputs[0].channel: \"vehicle.body.sped\" is not a channel of the "
                  "rig (did you mean vehicle.body.speed?)"))
      << ::testing::PrintToString(e2);
  const auto e3 =
      errors_of(dir, overlay("  inputs { channel: \"vehicle.body.speed\" variable: \"y\" }\n"));
  EXPECT_TRUE(has(e3,
                  "fmus[0].inputs[0].variable: \"y\" has causality output in FMU "
                  "first_order (modelDescription.xml line "))
      << ::testing::PrintToString(e3);
  const auto e4 =
      errors_of(dir, overlay("  inputs { channel: \"vehicle.body.yaw\" variable: \"u\" }\n"));
  EXPECT_TRUE(has(e4,
                  "fmus[0].inputs[0]: units differ: \"u\" is in m/s but channel "
                  "vehicle.body.yaw is in rad"))
      << ::testing::PrintToString(e4);
  const auto e5 =
      errors_of(dir, overlay("  outputs { variable: \"y\" channel: \"vehicle.body.speed\" }\n"));
  EXPECT_TRUE(has(e5,
                  "channel vehicle.body.speed is an output of the rig; an FMU output drives "
                  "an input channel"))
      << ::testing::PrintToString(e5);
  const auto e6 = errors_of(dir, "fmus { path: \"nope.fmu\" instance: \"lag\" }\n");
  EXPECT_TRUE(has(e6, "fmus[0].path: " + (dir.path() / "nope.fmu").string() + ": no such file"))
      << ::testing::PrintToString(e6);
  const auto e7 = errors_of(dir, overlay("") + overlay(""));
  EXPECT_TRUE(has(e7, "instance \"lag\" is given twice")) << ::testing::PrintToString(e7);
}

class FmuInTheLoop : public ::testing::TestWithParam<int> {};

TEST_P(FmuInTheLoop, ItsOutputsAreChannelsItDrivesTheVehicleAndTheRunReplaysIdentically) {
  const TempDir dir;
  const fs::path o = dir.write(
      "fmu.pbtxt", overlay("  every_ticks: 4\n"
                           "  parameters { name: \"T\" value: 0.2 }\n"
                           "  parameters { name: \"k\" value: 2 }\n"
                           "  inputs { channel: \"vehicle.body.speed\" variable: \"u\" }\n"
                           "  outputs { variable: \"y\" channel: \"env.wind.speed\" }\n",
                           GetParam()));
  const fs::path run = dir.path() / "run";
  const auto r =
      hilsim(fmt::format("run --overlay {} --duration 3s --speed max --no-rt "
                         "--console off -q --record {}",
                         o.string(), run.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(
      r.output.find(
          "fmu lag: 3000 steps of 0.001 s, none failed; on the RT thread; probe: 0 allocations in "
          "50 steps"),
      std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(budget 62.5 us): real-time safe"), std::string::npos) << r.output;
  const nlohmann::json manifest = nlohmann::json::parse(read_text(run / "manifest.json"));
  EXPECT_EQ(manifest["fmus"][0]["steps"], 3000);
  const auto replay = hilsim("replay " + run.string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
  // The output channel, recorded: y lags 2·speed with T = 0.2 s
  const auto exported =
      hilsim(fmt::format("export {} --csv {} --channels 'fmu.*' --channels 'vehicle.body.speed'",
                         run.string(), (dir.path() / "csv").string()));
  ASSERT_EQ(exported.status, 0) << exported.output;
  const std::string fmu_csv = read_text(dir.path() / "csv" / "fmu.lag.csv");
  EXPECT_EQ(fmu_csv.substr(0, fmu_csv.find('\n')), "time_s,tick,fmu.lag.y");
  const std::string last = fmu_csv.substr(fmu_csv.rfind('\n', fmu_csv.size() - 2) + 1);
  const double y = std::stod(last.substr(last.rfind(',') + 1));
  EXPECT_GT(y, 1.0);  // the vehicle is moving at about 1 m/s: y → 2 m/s
  EXPECT_LT(y, 2.5);
}

INSTANTIATE_TEST_SUITE_P(Fmi, FmuInTheLoop, ::testing::Values(2, 3),
                         [](const auto& p) { return fmt::format("fmi{}", p.param); });

TEST(FmuInTheLoop, AFailedStepSendsTheOutputsToTheirSafeValues) {
  const TempDir dir;
  const fs::path o = dir.write(
      "fmu.pbtxt", overlay("  parameters { name: \"x0\" value: 0.5 }\n"
                           "  parameters { name: \"fail_after\" value: 100 }\n"
                           "  inputs { channel: \"vehicle.body.speed\" variable: \"u\" }\n"
                           "  outputs { variable: \"y\" channel: \"env.wind.speed\" }\n"));
  const fs::path run = dir.path() / "run";
  const auto r =
      hilsim(fmt::format("run --overlay {} --duration 1s --speed max --no-rt "
                         "--console off -q --record {}",
                         o.string(), run.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("fmu lag: 100 steps of 0.00025 s, failed at 0.02475 s (status 3): "
                          "outputs at their safe values since"),
            std::string::npos)
      << r.output;
  const nlohmann::json manifest = nlohmann::json::parse(read_text(run / "manifest.json"));
  EXPECT_EQ(manifest["fmus"][0]["failed"], true);
  (void)hilsim(fmt::format("export {} --csv {} --channels 'fmu.*'", run.string(),
                           (dir.path() / "csv").string()));
  const std::string csv = read_text(dir.path() / "csv" / "fmu.lag.csv");
  EXPECT_NE(csv.find("\n0.5,2000,0\n"), std::string::npos) << csv.substr(0, 300);  // safe: 0
}

// The probe steps a copy of the FMU before the run and counts what its C code allocates.
TEST(FmuInTheLoop, TheProbeFindsAnFmuThatAllocatesInItsSteps) {
  const TempDir dir;
  const fs::path o = dir.write(
      "fmu.pbtxt", overlay("  parameters { name: \"allocate\" value: 1 }\n"
                           "  inputs { channel: \"vehicle.body.speed\" variable: \"u\" }\n"));
  const auto r =
      hilsim(fmt::format("run --overlay {} --duration 0.5s --speed max --no-rt "
                         "--console off -q --record {}",
                         o.string(), (dir.path() / "run").string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("probe: 50 allocations in 50 steps"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("NOT real-time safe (it allocates in its steps"), std::string::npos)
      << r.output;
  const nlohmann::json manifest =
      nlohmann::json::parse(read_text(dir.path() / "run" / "manifest.json"));
  EXPECT_EQ(manifest["fmus"][0]["realtime_safe"], false);
  EXPECT_EQ(manifest["fmus"][0]["probe_allocations"], 50);
}

// A path relative to the overlay: the run directory holds a copy of the FMU and its rig.pbtxt
// names the copy, so the run replays from anywhere.
TEST(FmuInTheLoop, ARelativePathReplaysFromTheRunDirectory) {
  const TempDir dir;
  fs::copy_file(fmu_file(2), dir.path() / "lag.fmu");
  const fs::path o = dir.write("fmu.pbtxt",
                               "fmus { path: \"lag.fmu\" instance: \"lag\"\n"
                               "  inputs { channel: \"vehicle.body.speed\" variable: \"u\" }\n"
                               "  outputs { variable: \"y\" channel: \"env.wind.speed\" } }\n");
  const fs::path run = dir.path() / "run";
  const auto r =
      hilsim(fmt::format("run --overlay {} --duration 0.5s --speed max --no-rt "
                         "--console off -q --record {}",
                         o.string(), run.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  // The FMU is copied into the run directory, like a DBC, and rig.pbtxt names the copy
  EXPECT_TRUE(fs::exists(run / "lag.fmu"));
  EXPECT_NE(read_text(run / "rig.pbtxt").find("path: \"lag.fmu\""), std::string::npos);
  const auto replay =
      io::testing::run_command(fmt::format("cd / && {} replay {} -q", HILSIM_BINARY, run.string()));
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
}

}  // namespace
}  // namespace hil::config
