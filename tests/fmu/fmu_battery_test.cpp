// RAVON's battery as an FMU (issue 18; docs/fmu.md "The RAVON battery as an FMU"): the
// Tremblay–Dessaint lead-acid model written in C on its own (tests/fmu/ravon_battery/) and
// exported as an FMI 2.0 co-simulation FMU. Standalone, it follows the closed form of a
// constant discharge; in RAVON's loop in place of the built-in battery (external: true, the
// FMU's v driving vehicle.battery.external_voltage), the double lane change matches the
// built-in run within the tolerances below, and the run replays identically.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "models/battery/battery.hpp"
#include "models/drive/electric_drive_params.hpp"
#include "tests/fmu/hilsim_command.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::config {
namespace {

namespace fs = std::filesystem;
using fmu_testing::hilsim;
using testing::TempDir;

constexpr const char* kFmu = HIL_FMU_DIR "/ravon_battery_fmi2.fmu";

/// A CSV with a header: its columns by name (the names' quotes of `fmu simulate` dropped).
std::map<std::string, std::vector<double>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::istringstream header(line);
  for (std::string name; std::getline(header, name, ',');) {
    if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.size() - 2);
    names.push_back(name);
  }
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    for (std::size_t i = 0; std::getline(row, cell, ',') && i < names.size(); ++i) {
      columns[names[i]].push_back(std::stod(cell));
    }
  }
  return columns;
}

TEST(RavonBatteryFmu, AConstantDischargeFollowsTheClosedForm) {
  const TempDir dir;
  const fs::path out = dir.path() / "out.csv";
  const auto r = hilsim(fmt::format(
      "fmu simulate {} --stop-time 600 --step 0.5 --set i=20 --output {}", kFmu, out.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  const auto csv = read_csv(out);
  ASSERT_EQ(csv.at("time").size(), 1201U);
  // The built-in model's equations (models/battery/battery.hpp) at the closed-form state of a
  // 20 A discharge from rest at SOC 0.9: it = it0 + I·t, i* = I·(1 − e^(−t/T)),
  // Exp = Exp0·e^(−B·I·t) (dExp/dt = −B·|I|·Exp while discharging)
  const models::BatteryParams p = models::ravon_drive_params().battery;
  const models::BatteryState s0 = models::battery_initial_state(p, 0.9);
  const double current = 20.0;
  double worst = 0.0;
  for (std::size_t k = 0; k < csv.at("time").size(); ++k) {
    const double t = csv.at("time")[k];
    const models::BatteryState s{
        .extracted_charge = s0.extracted_charge + current * t,
        .filtered_current = current * (1.0 - std::exp(-t / p.response_time)),
        .exp_zone = s0.exp_zone * std::exp(-p.b * current * t)};
    worst =
        std::max(worst, std::abs(csv.at("v")[k] - models::battery_terminal_voltage(p, s, current)));
    ASSERT_NEAR(csv.at("soc")[k], models::battery_soc(p, s.extracted_charge), 1e-12) << t;
  }
  EXPECT_LT(worst, 1e-9);  // RK4 at 0.5 s on a 30 s lag
  // By hand at 600 s: it = 49 800 C = 13.833 A·h, K·Q/(Q − it) = 7.3906 mΩ, i* = 20 A, Exp ≈ 0:
  // V = 50.13257 − 0.0073906·(20 + 13.833) − 0.02·20 = 49.48252 V
  EXPECT_NEAR(csv.at("v").back(), 49.48252, 1e-5);
}

TEST(RavonBatteryFmu, InPlaceOfTheBuiltInBatteryTheLaneChangeMatchesAndReplaysIdentically) {
  const TempDir dir;
  const fs::path overlay = dir.write(
      "battery_fmu.pbtxt",
      fmt::format("vehicle {{ drive {{ electric {{ battery {{ external: true }} }} }} }}\n"
                  "fmus {{\n"
                  "  path: \"{}\"\n"
                  "  instance: \"battery\"\n"
                  "  inputs {{ channel: \"vehicle.battery.current\" variable: \"i\" }}\n"
                  "  outputs {{ variable: \"v\" channel: \"vehicle.battery.external_voltage\" }}\n"
                  "  outputs {{ variable: \"soc\" }}\n"
                  "}}\n",
                  kFmu));
  std::map<std::string, std::map<std::string, std::vector<double>>> runs;
  std::map<std::string, std::string> summaries;
  for (const std::string name : {"builtin", "fmu"}) {
    const fs::path run = dir.path() / name;
    const auto r = hilsim(fmt::format(
        "run --rig ravon --scenario double_lane_change {} --speed max --no-rt --console off "
        "-q --record {}",
        name == "fmu" ? "--overlay " + overlay.string() : "", run.string()));
    ASSERT_EQ(r.status, 0) << r.output;
    summaries[name] = r.output;
    const fs::path csv = dir.path() / (name + "_csv");
    const auto e = hilsim(fmt::format(
        "export {} --csv {} --channels 'vehicle.battery.*' --channels 'vehicle.body.speed' "
        "--channels 'vehicle.body.position.*' --channels 'fmu.*'",
        run.string(), csv.string()));
    ASSERT_EQ(e.status, 0) << e.output;
    for (const auto& entry : fs::directory_iterator(csv)) {
      for (auto& [column, values] : read_csv(entry.path())) runs[name][column] = std::move(values);
    }
  }
  EXPECT_NE(summaries["fmu"].find("fmu battery: 520000 steps of 0.00025 s, none failed; on the "
                                  "RT thread"),
            std::string::npos)
      << summaries["fmu"];
  // The gates' lines (clearances to the millimetre, times to 10 ms) are the same
  const auto gates = [](const std::string& s) { return s.substr(s.find("scenario: ")); };
  EXPECT_EQ(gates(summaries["fmu"]).substr(0, gates(summaries["fmu"]).find("recording")),
            gates(summaries["builtin"]).substr(0, gates(summaries["builtin"]).find("recording")));
  const auto max_difference = [&](const std::string& a, const std::string& b) {
    const std::vector<double>& x = runs["builtin"].at(a);
    const std::vector<double>& y = runs["fmu"].at(b);
    EXPECT_EQ(x.size(), y.size()) << a;
    double worst = 0.0;
    for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      worst = std::max(worst, std::abs(x[i] - y[i]));
    }
    return worst;
  };
  // The documented tolerances (docs/fmu.md): the FMU sees the current one tick late and holds
  // it over its step; measured 9.6 mV, 8.2e-7 m/s, 1.4e-8 m, 1e-10 in SOC
  EXPECT_LT(max_difference("vehicle.battery.voltage", "vehicle.battery.voltage"), 0.02);
  EXPECT_LT(max_difference("vehicle.battery.voltage", "fmu.battery.v"), 0.02);
  EXPECT_LT(max_difference("vehicle.battery.soc", "fmu.battery.soc"), 1e-8);
  EXPECT_LT(max_difference("vehicle.body.speed", "vehicle.body.speed"), 1e-5);
  EXPECT_LT(max_difference("vehicle.body.position.x", "vehicle.body.position.x"), 1e-6);
  EXPECT_LT(max_difference("vehicle.body.position.y", "vehicle.body.position.y"), 1e-6);
  // …and they are different runs: the FMU's voltage is not the built-in one
  EXPECT_GT(max_difference("vehicle.battery.voltage", "vehicle.battery.voltage"), 1e-6);

  const auto replay = hilsim("replay " + (dir.path() / "fmu").string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
}

// Issue 42: an overlay naming its FMU by a relative path; the run directory holds a copy of the
// FMU, its rig.pbtxt names the copy, and the run replays identically from another directory.
TEST(RavonBatteryFmu, ARunWithARelativeFmuPathReplaysFromAnotherDirectory) {
  const TempDir dir;
  fs::create_directories(dir.path() / "ov" / "fmu");
  fs::copy_file(kFmu, dir.path() / "ov" / "fmu" / "ravon_battery_fmi2.fmu");
  dir.write("ov/battery_fmu.pbtxt",
            "vehicle { drive { electric { battery { external: true } } } }\n"
            "fmus {\n"
            "  path: \"fmu/ravon_battery_fmi2.fmu\"\n"
            "  instance: \"battery\"\n"
            "  inputs { channel: \"vehicle.battery.current\" variable: \"i\" }\n"
            "  outputs { variable: \"v\" channel: \"vehicle.battery.external_voltage\" }\n"
            "}\n");
  const auto r = io::testing::run_command(
      fmt::format("cd {} && {} run --rig ravon --overlay ov/battery_fmu.pbtxt --duration 1s "
                  "--speed max --no-rt --console off -q --record run",
                  dir.path().string(), HILSIM_BINARY));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir.path() / "run" / "ravon_battery_fmi2.fmu"));
  EXPECT_NE(fmu_testing::read_text(dir.path() / "run" / "rig.pbtxt")
                .find("path: \"ravon_battery_fmi2.fmu\""),
            std::string::npos);
  const auto replay = io::testing::run_command(
      fmt::format("cd / && {} replay {} -q", HILSIM_BINARY, (dir.path() / "run").string()));
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
}

}  // namespace
}  // namespace hil::config
