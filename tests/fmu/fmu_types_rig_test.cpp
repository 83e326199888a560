// FMUs of every numeric type and an FMU that ends the simulation in a rig (issue 40): integer,
// boolean and enumeration variables map to channels as doubles (integers exact, booleans 0/1);
// strings, binaries, arrays and non-integral values for integer parameters are refused with
// located errors; an FMU that ends the simulation stops stepping, its outputs hold, the summary
// and manifest say when, and the run replays identically.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "config/rig/loader.hpp"
#include "tests/fmu/hilsim_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::config {
namespace {

namespace fs = std::filesystem;
using fmu_testing::hilsim;
using fmu_testing::read_text;
using testing::TempDir;

constexpr const char* kRavon = HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt";

std::string fmu_file(const std::string& name) {
  return fmt::format("{}/{}.fmu", HIL_FMU_DIR, name);
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

/// The last row of an exported channel CSV (time_s,tick,value) as numbers.
std::vector<double> last_row(const fs::path& csv) {
  const std::string text = read_text(csv);
  const std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
  std::vector<double> out;
  std::stringstream fields(last);
  for (std::string f; std::getline(fields, f, ',');) out.push_back(std::stod(f));
  return out;
}

TEST(FmuTypesInARig, WhatAChannelCannotHoldIsRefusedWhereItIsNamed) {
  const TempDir dir;
  const std::string ft = fmu_file("feedthrough_fmi3");
  const auto strings = errors_of(dir, fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"ft\"\n"
                                                  "  outputs {{ variable: \"string_out\" }}\n}}\n",
                                                  ft));
  EXPECT_TRUE(has(strings,
                  "o.pbtxt:4:23: fmus[0].outputs[0].variable: \"string_out\" is String in FMU "
                  "feedthrough; a rig maps numbers to channels (reals, integers, booleans, "
                  "enumerations); String values only in hilsim fmu simulate"))
      << ::testing::PrintToString(strings);
  const auto range =
      errors_of(dir, fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"ft\"\n"
                                 "  parameters {{ name: \"int32_offset\" value: 2.5 }}\n}}\n",
                                 ft));
  EXPECT_TRUE(has(range,
                  "fmus[0].parameters[0].value: 2.5: \"int32_offset\" is Int32; expected an "
                  "integer in [-2147483648, 2147483647]"))
      << ::testing::PrintToString(range);
  const auto arrays = errors_of(dir, fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"a\"\n"
                                                 "  outputs {{ variable: \"y\" }}\n}}\n",
                                                 fmu_file("arrays_fmi3")));
  EXPECT_TRUE(has(arrays,
                  "fmus[0].outputs[0].variable: \"y\" is an array (3 values) in FMU arrays; a "
                  "rig maps scalars; arrays only in hilsim fmu simulate"))
      << ::testing::PrintToString(arrays);
}

// The vehicle's speed (about 1 m/s) into integer, boolean and enumeration inputs; their outputs
// are channels: round(speed) + 5, speed ≠ 0, and an enumeration as its integer. The feedthrough
// allocates in its reads (strings), so the probe sends it to a worker thread.
TEST(FmuTypesInARig, IntegersBooleansAndEnumerationsAreChannelsAndTheRunReplays) {
  const TempDir dir;
  const fs::path o = dir.write(
      "ft.pbtxt",
      fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"ft\"\n"
                  "  parameters {{ name: \"int32_offset\" value: 5 }}\n"
                  "  parameters {{ name: \"float64_gain\" value: 3 }}\n"
                  "  inputs {{ channel: \"vehicle.body.speed\" variable: \"int32_in\" }}\n"
                  "  inputs {{ channel: \"vehicle.body.speed\" variable: \"bool_in\" }}\n"
                  "  inputs {{ channel: \"vehicle.body.speed\" variable: \"uint64_in\" }}\n"
                  "  inputs {{ channel: \"vehicle.body.speed\" variable: \"float64_in\" }}\n"
                  "  outputs {{ variable: \"int32_out\" }}\n"
                  "  outputs {{ variable: \"bool_out\" }}\n"
                  "  outputs {{ variable: \"uint64_out\" }}\n"
                  "  outputs {{ variable: \"enum_out\" }}\n"
                  "  outputs {{ variable: \"float64_out\" }}\n}}\n",
                  fmu_file("feedthrough_fmi3")));
  const fs::path run = dir.path() / "run";
  const auto r = hilsim(
      fmt::format("run --overlay {} --duration 2s --speed max --no-rt --console off -q --record {}",
                  o.string(), run.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("fmu ft: "), std::string::npos) << r.output;
  const auto replay = hilsim("replay " + run.string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
  const auto exported =
      hilsim(fmt::format("export {} --csv {} --channels 'fmu.*' --channels 'vehicle.body.speed'",
                         run.string(), (dir.path() / "csv").string()));
  ASSERT_EQ(exported.status, 0) << exported.output;
  const std::string csv = read_text(dir.path() / "csv" / "fmu.ft.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_s,tick,fmu.ft.int32_out,fmu.ft.bool_out,fmu.ft.uint64_out,fmu.ft.enum_out,"
            "fmu.ft.float64_out");
  // Every row: int32_out − 5 = uint64_out = round(speed) (speed ≥ 0), bool_out = (speed ≠ 0),
  // float64_out = 3·speed of the same step: so float64_out/3 rounds to the integers
  std::stringstream rows(csv.substr(csv.find('\n') + 1));
  int checked = 0;
  for (std::string line; std::getline(rows, line);) {
    std::vector<double> v;
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) v.push_back(std::stod(f));
    ASSERT_EQ(v.size(), 7U) << line;
    const double speed = v[6] / 3.0;
    EXPECT_EQ(v[2], std::nearbyint(speed) + 5.0) << line;
    EXPECT_EQ(v[4], std::nearbyint(speed)) << line;
    EXPECT_EQ(v[3], speed != 0.0 ? 1.0 : 0.0) << line;
    EXPECT_EQ(v[5], 1.0) << line;  // enum_in unmapped: its start value 1
    ++checked;
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(last_row(dir.path() / "csv" / "fmu.ft.csv")[6], 1.5);  // it moved: 3·speed > 1.5
}

class StairInARig : public ::testing::TestWithParam<std::pair<int, std::string>> {};

// stop_at 1.3 s: counter = 1 + floor(t) reaches 2, the FMU stops in the step that contains
// 1.3 s, and from then on its outputs hold (counter 2, t_fmu 1.3) — no error, said in the
// summary and the manifest; the run replays identically (on the RT thread and on a worker).
TEST_P(StairInARig, TheFmuEndsTheSimulationItsOutputsHoldAndTheRunReplays) {
  const auto& [version, thread] = GetParam();
  const TempDir dir;
  const fs::path o =
      dir.write("stair.pbtxt", fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"stair\"\n"
                                           "  every_ticks: 4\n  thread: {}\n"
                                           "  parameters {{ name: \"stop_at\" value: 1.3 }}\n"
                                           "  outputs {{ variable: \"counter\" }}\n"
                                           "  outputs {{ variable: \"t_fmu\" }}\n}}\n",
                                           fmu_file(fmt::format("stair_fmi{}", version)), thread));
  const fs::path run = dir.path() / "run";
  const auto r = hilsim(
      fmt::format("run --overlay {} --duration 2s --speed max --no-rt --console off -q --record {}",
                  o.string(), run.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("none failed; the FMU ended the simulation at 1.3 s: outputs held since"),
            std::string::npos)
      << r.output;
  const nlohmann::json manifest = nlohmann::json::parse(read_text(run / "manifest.json"));
  EXPECT_EQ(manifest["fmus"][0]["terminated_at"], 1.3);
  EXPECT_EQ(manifest["fmus"][0]["failed"], false);
  const auto replay = hilsim("replay " + run.string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
  (void)hilsim(fmt::format("export {} --csv {} --channels 'fmu.*'", run.string(),
                           (dir.path() / "csv").string()));
  const std::vector<double> last = last_row(dir.path() / "csv" / "fmu.stair.csv");
  ASSERT_EQ(last.size(), 4U);
  EXPECT_EQ(last[2], 2.0);  // counter(1.3) = 1 + floor(1.3)
  EXPECT_EQ(last[3], 1.3);  // where it stopped, held
}

INSTANTIATE_TEST_SUITE_P(Fmi, StairInARig,
                         ::testing::Values(std::pair<int, std::string>{2, "RT_THREAD"},
                                           std::pair<int, std::string>{3, "RT_THREAD"},
                                           std::pair<int, std::string>{3, "WORKER"}),
                         [](const auto& p) {
                           return fmt::format("fmi{}_{}", p.param.first, p.param.second);
                         });

}  // namespace
}  // namespace hil::config
