// Faults and channel writes sent while a run goes on (the command queue, as the console and
// the API will use it): each is applied at a tick, logged with it in commands.log, and
// `hilsim replay` applies them again at those ticks — identical; leaving a fault out
// (--without-fault) diverges exactly at its onset.

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/recorded_run.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::session {
namespace {

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

using testing::recorded_run;
using testing::replay_of;

TEST(Commands, AppliedAtATickLoggedAndReplayedIdentically) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  RunSpec o = recorded_run(dir, "2s", {.mode = Speed::Mode::factor, .factor = 1.0});
  std::thread sender;
  std::vector<std::string> refused;
  o.with_commands = [&](runtime::CommandQueue& q) {
    sender = std::thread([&q, &refused] {
      using namespace std::chrono_literals;
      q.add_fault_text(R"(name: "lost" start { at_s: 0.5 } stop { duration_s: 0.1 }
                          message { bus: "ecu" name: "HIL_WheelSpeeds" drop {} })");
      std::this_thread::sleep_for(300ms);
      q.write("env.wind.speed", 8.25);
      std::this_thread::sleep_for(400ms);
      q.release("env.wind.speed");
      std::this_thread::sleep_for(200ms);
      q.add_fault_text(
          R"(name: "gyro" channel { name: "vehicle.imu.gyro.z" offset { value: 0.5 } })");
      std::this_thread::sleep_for(400ms);
      q.clear_fault("gyro");
      for (const auto& bad : {"no.such.channel", "vehicle.body.speed"}) {
        try {
          q.write(bad, 1.0);
        } catch (const std::invalid_argument& e) {
          refused.emplace_back(e.what());
        }
      }
      try {
        q.add_fault_text(R"(name: "lost" bus { name: "ecu" silence {} })");
      } catch (const std::invalid_argument& e) {
        refused.emplace_back(e.what());
      }
    });
  };
  const int status = run_rig(o);
  sender.join();
  ASSERT_TRUE(status == 0 || status == 4) << status;

  const std::vector<std::string> log = lines_of(dir / "commands.log");
  ASSERT_EQ(log.size(), 5U);
  const std::vector<std::string> kinds{"fault", "write", "release", "fault", "clear"};
  std::int64_t last = -1;
  for (std::size_t i = 0; i < log.size(); ++i) {
    std::istringstream in(log[i]);
    std::int64_t tick = 0;
    std::string kind;
    in >> tick >> kind;
    EXPECT_EQ(kind, kinds[i]) << log[i];
    EXPECT_GE(tick, last) << log[i];
    last = tick;
  }
  EXPECT_NE(log[1].find("write env.wind.speed 8.25"), std::string::npos) << log[1];
  ASSERT_EQ(refused.size(), 3U);
  EXPECT_NE(refused[0].find("no channel no.such.channel"), std::string::npos);
  EXPECT_NE(refused[1].find("is an output"), std::string::npos);
  EXPECT_NE(refused[2].find("\"lost\" exists"), std::string::npos);

  std::ifstream manifest_in(dir / "manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(manifest_in);
  EXPECT_NE(manifest.value("faults", std::string())
                .find("lost (drop of HIL_WheelSpeeds on ecu) ticks 2000–2399, 10 frames"),
            std::string::npos)
      << manifest.dump();

  ReplaySpec r = replay_of(dir);
  EXPECT_EQ(replay(r), 0) << "the commands, applied again at their ticks, replay identically";

  r.without_faults = {"lost"};
  r.report = (tmp.path() / "without.json").string();
  EXPECT_EQ(replay(r), 1);
  std::ifstream report_in(*r.report);
  const nlohmann::json report = nlohmann::json::parse(report_in);
  EXPECT_EQ(report["first_divergence"]["tick"], 2000) << report.dump();
}

// 32 faults of every kind from a rig overlay (pulses, delays, cycles, silence, noise, drift…):
// the faulted run replays identically, and without one of them it diverges at its onset.
TEST(Commands, ThirtyTwoFileFaultsReplayIdentically) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  RunSpec o = recorded_run(dir, "3s", {.mode = Speed::Mode::max});
  o.rig.overlays = {HIL_SOURCE_DIR "/tests/bench/faults_32.pbtxt"};
  const int status = run_rig(o);
  ASSERT_TRUE(status == 0 || status == 4) << status;
  ReplaySpec r = replay_of(dir);
  EXPECT_EQ(replay(r), 0);
  r.without_faults = {"f18"};  // only every 3rd HIL_Imu from 1 s: fault.f18.active differs first
  r.report = (tmp.path() / "without.json").string();
  EXPECT_EQ(replay(r), 1);
  std::ifstream report_in(*r.report);
  EXPECT_EQ(nlohmann::json::parse(report_in)["first_divergence"]["tick"], 4000);
}

}  // namespace
}  // namespace hil::session
