// Run-time control of a rest bus through the command queue, as the API and the console use
// it (docs/can.md "Control at run time"): a simulated node switched off, a message off, a
// message's cycle changed — each on the wire (can.log) from the tick the fault names, in
// commands.log, and replayed identically.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_parser.hpp"
#include "tests/support/recorded_run.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::session {
namespace {

constexpr double kPeriodS = 250e-6;  // RAVON's

/// The ticks at which each id went out on bus `bus`, from can.log ("(s.us) bus ID#DATA"),
/// counted from the log's first frame (RAVON's own messages start at tick 0).
std::map<std::uint32_t, std::vector<std::int64_t>> frames_of(const std::filesystem::path& log,
                                                             const std::string& bus) {
  std::ifstream in(log);
  std::map<std::uint32_t, std::vector<std::int64_t>> out;
  std::optional<double> t0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string time, name, frame;
    words >> time >> name >> frame;
    const double t = std::stod(time.substr(1));
    if (!t0) t0 = t;
    if (name != bus) continue;
    const auto id =
        static_cast<std::uint32_t>(std::stoul(frame.substr(0, frame.find('#')), nullptr, 16));
    out[id].push_back(std::llround((t - *t0) / kPeriodS));
  }
  return out;
}

TEST(RestBusCommands, NodeOffMessageOffAndCycleOnTheWireLoggedAndReplayed) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  RunSpec o = testing::recorded_run(dir, "1.5s");
  o.rig = {.rig = "ravon",
           .overlays = {HIL_SOURCE_DIR "/tests/tools/restbus/restbus.pbtxt"},
           .scenario = "none"};
  o.with_commands = [](runtime::CommandQueue& q) {  // before the run: applied at tick 0
    q.add_fault_json(R"({"name": "abs off", "start": {"at_s": 0.5}, "stop": {"duration_s": 0.3},
                         "bus": {"name": "body", "node": "ABS", "silence": {}}})");
    q.add_fault_json(R"({"name": "accel off", "start": {"at_s": 0.6}, "stop": {"duration_s": 0.2},
                         "message": {"bus": "body", "name": "ESP_Accel", "drop": {}}})");
    q.add_fault_json(R"({"name": "lights fast", "start": {"at_s": 0.5},
                         "message": {"bus": "body", "name": "BCM_Lights", "cycle": {"ms": 50}}})");
  };
  const int status = run_rig(o);
  ASSERT_TRUE(status == 0 || status == 4) << status;

  std::ifstream commands(dir / "commands.log");
  std::vector<std::string> lines;
  for (std::string line; std::getline(commands, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_NE(lines[0].find("abs off"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("node: \"ABS\""), std::string::npos) << lines[0];

  const io::can::dbc::Database db =
      io::can::dbc::load_dbc(HIL_SOURCE_DIR "/tests/tools/restbus/vehicle.dbc");
  const auto id_of = [&](const std::string& name) { return db.find_message(name)->id; };
  auto frames = frames_of(dir / "can.log", "body");
  // ABS silent on ticks [2000, 3200): its frames stop there and resume at 3200
  std::set<std::uint32_t> abs;
  for (const auto& m : db.messages) {
    if (m.sender == "ABS") abs.insert(m.id);
  }
  for (const std::uint32_t id : abs) {
    for (const std::int64_t t : frames[id]) EXPECT_TRUE(t < 2000 || t >= 3200) << id << " " << t;
  }
  const auto& wheel = frames[id_of("ABS_WheelSpeeds")];  // 10 ms: ticks 0, 40, …
  EXPECT_NE(std::find(wheel.begin(), wheel.end(), 1960), wheel.end());
  EXPECT_NE(std::find(wheel.begin(), wheel.end(), 3200), wheel.end());
  // ESP_Accel (20 ms) off on [2400, 3200); ESP's other messages go on
  for (const std::int64_t t : frames[id_of("ESP_Accel")]) EXPECT_TRUE(t < 2400 || t >= 3200) << t;
  const auto& yaw = frames[id_of("ESP_YawRate")];
  EXPECT_EQ(
      std::count_if(yaw.begin(), yaw.end(), [](std::int64_t t) { return t >= 2400 && t < 3200; }),
      20);
  // BCM_Lights every 400 ticks (100 ms), every 200 (50 ms) from its due frame at 2000
  const auto& lights = frames[id_of("BCM_Lights")];
  for (std::size_t i = 1; i < lights.size(); ++i) {
    EXPECT_EQ(lights[i] - lights[i - 1], lights[i - 1] < 2000 ? 400 : 200) << lights[i];
  }
  EXPECT_GT(lights.back(), 5000);

  ReplaySpec r = testing::replay_of(dir);
  EXPECT_EQ(replay(r), 0) << "node off, message off and a new cycle replay identically";
}

}  // namespace
}  // namespace hil::session
