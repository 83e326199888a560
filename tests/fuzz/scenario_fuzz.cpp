// libFuzzer target for scenario files (config/scenario/scenario.proto): arbitrary bytes as a
// scenario on a RAVON rig (no CAN bus: the rig file is written once), through parsing, the `rig`
// overlay, validation and conversion, and then the virtual ECU's setup that consumes the
// result (path, speed plan, judge). Besides crashes and sanitizer reports it traps when a
// promise breaks: an error without a message or with an impossible location, or settings
// accepted that the ECU cannot use (a path whose points coincide, non-finite numbers).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target scenario_fuzz
//   cmake --build --preset fuzz --target run_scenario_fuzz     # with the seed corpus

#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "config/scenario/scenario_spec.hpp"
#include "runtime/scenario/course_path.hpp"
#include "runtime/scenario/scenario_judge.hpp"
#include "tools/ecu/speed_plan.hpp"

namespace {

constexpr hil::config::Machine kMachine{.configured_cpus = 4};

void require(bool promise) {
  if (!promise) __builtin_trap();
}

const std::filesystem::path& rig_file() {
  static const std::filesystem::path path = [] {
    const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                    ("scenario_fuzz_rig_" + std::to_string(getpid()) + ".pbtxt");
    // RAVON's vehicle and CAN bus (the faults block names its messages), no default scenario
    std::ofstream(p) << "vehicle { preset: \"ravon\" }\nterrain { flat {} }\n"
                     << "can { buses { name: \"ecu\" uri: \"virtual:fuzz\" dbc: \""
                     << HIL_SOURCE_DIR "/hil_rigs/ravon/ravon.dbc\""
                     << " rx { message: \"ECU_Steer\" signals { signal: \"SteerFront\" "
                        "channel: \"vehicle.steering.front.command\" } }"
                     << " tx { message: \"HIL_Pose\" signals { signal: \"PosX\" channel: "
                        "\"vehicle.body.position.x\" } } } }\n";
    return p;
  }();
  return path;
}

void check_settings(const hil::config::ScenarioSpec& s) {
  require(std::isfinite(s.duration_s) && s.duration_s > 0.0);
  for (const hil::config::CoursePoint& p : s.drive.path) {
    require(std::isfinite(p.x) && std::isfinite(p.y));
  }
  // What the ECU builds from it in its setup phase must not throw
  const hil::runtime::CoursePath path(s.drive.path);
  const hil::ecu::SpeedPlan plan(s.drive, path);
  hil::runtime::ScenarioJudge judge(s);
  for (int i = 0; i < 4; ++i) {
    const double t = s.duration_s * i / 3.0;
    judge.observe({.time = t, .x = 3.0 * i, .y = 0.1 * i, .yaw = 0.05 * i, .speed = 1.0});
    std::size_t hint = 0;
    require(std::isfinite(plan.target(t, path.project(3.0 * i, 0.0, hint))));
  }
  const hil::runtime::ScenarioVerdict v = judge.verdict();
  require(v.gates.size() == s.gates.size());
  for (const hil::config::FaultSpec& f : s.faults) {  // checked: names and targets set
    require(!f.name.empty() && !f.where.empty());
    if (const auto* m = std::get_if<hil::config::MessageFaultSpec>(&f.target)) {
      require(m->bus == "ecu" && (m->message == "ECU_Steer" || m->message == "HIL_Pose"));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const hil::config::ScenarioLoadResult result =
      hil::config::load_scenario_text({"scenario.pbtxt", text}, rig_file(), {}, kMachine);
  require(result.ok() == result.errors.empty());
  for (const hil::config::ConfigError& error : result.errors) {
    require(!error.message.empty());
    require(error.line >= 0 && error.column >= 0);
    require(error.line > 0 || error.column == 0);
  }
  if (result.ok()) check_settings(*result.scenario);
  (void)hil::config::looks_like_scenario(text);
  return 0;
}
