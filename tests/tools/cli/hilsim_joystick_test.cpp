// A driver in the loop from a Linux joystick, end to end (docs/console.md "Driving"): `hilsim
// run --joystick FIFO` on RAVON's rig, its wheel and pedals played into the FIFO as struct
// input_event records — the first button takes the wheel, full throttle, full left lock, the
// brake, the second button gives it back. The vehicle goes faster than the scenario's 1 m/s,
// turns left (positive yaw rate) while steered left, slows on the brake; commands.log holds each
// input and, last, the release of driver.mode; the run's summary counts the joystick's events
// and a garbage record; `hilsim replay` of the run is identical.

#include <fcntl.h>
#include <linux/input.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools::testing {
namespace {

using namespace std::chrono_literals;

/// One input_event record.
std::string record(std::uint16_t type, std::uint16_t code, std::int32_t value) {
  input_event e{};
  e.type = type;
  e.code = code;
  e.value = value;
  return {reinterpret_cast<const char*>(&e), sizeof e};
}
std::string axis(std::uint16_t code, std::int32_t v) {
  return record(EV_ABS, code, v) + record(EV_SYN, SYN_REPORT, 0);
}
std::string click(std::uint16_t button) {
  return record(EV_KEY, button, 1) + record(EV_SYN, SYN_REPORT, 0) + record(EV_KEY, button, 0) +
         record(EV_SYN, SYN_REPORT, 0);
}

/// Columns of an exported CSV by name.
std::map<std::string, std::vector<double>> read_csv(const std::filesystem::path& file) {
  std::map<std::string, std::vector<double>> out;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string n; std::getline(header, n, ',');) names.push_back(n);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::size_t i = 0;
    for (std::string v; std::getline(row, v, ',') && i < names.size(); ++i) {
      out[names[i]].push_back(std::stod(v));
    }
  }
  return out;
}

/// The column `name` from whichever exported CSV has it.
std::vector<double> column(const std::filesystem::path& dir, const std::string& name) {
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    auto columns = read_csv(f.path());
    if (const auto it = columns.find(name); it != columns.end()) return it->second;
  }
  return {};
}

TEST(HilsimJoystick, AWheelOnAFifoDrivesTheVehicleRecordedAndReplayedIdentically) {
  const config::testing::TempDir dir;
  const std::filesystem::path fifo = dir.path() / "wheel";
  const std::filesystem::path run = dir.path() / "run";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto hilsim = std::async(std::launch::async, [&] {
    return run_hilsim("run --rig " HIL_SOURCE_DIR
                      "/hil_rigs/ravon/rig.pbtxt --no-rt "
                      "--duration 16s --console off -q --joystick " +
                      fifo.string() + " --record " + run.string());
  });
  int w = -1;  // ENXIO until the reader has it open
  for (int i = 0; i < 500 && w < 0; ++i) {
    w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (w < 0) std::this_thread::sleep_for(20ms);
  }
  if (w < 0) FAIL() << "hilsim never opened the FIFO: " << hilsim.get().output;
  const auto send = [w](const std::string& bytes) {
    ASSERT_EQ(::write(w, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  };
  std::this_thread::sleep_for(1s);
  send(record(0x15, 1, 1));  // garbage: counted, ignored
  // at rest: the wheel centred (0..65535), the pedals up (they rest at 255)
  send(axis(ABS_X, 32768) + axis(ABS_Z, 255) + axis(ABS_RZ, 255) + click(BTN_TRIGGER));
  std::this_thread::sleep_for(300ms);
  send(axis(ABS_Z, 0));  // full throttle: the ECU's demand goes to 1.4 m/s (max_speed)
  std::this_thread::sleep_for(5s);
  send(axis(ABS_X, 0));  // full left lock
  std::this_thread::sleep_for(2500ms);
  send(axis(ABS_X, 32768) + axis(ABS_Z, 255) + axis(ABS_RZ, 0));  // straight, full brake
  std::this_thread::sleep_for(2s);
  send(click(BTN_THUMB));  // give the wheel back
  std::this_thread::sleep_for(500ms);
  ::close(w);
  const CommandResult result = hilsim.get();
  // 4: the scenario's lane gates judge what the driver did (a left lock leaves the lane)
  ASSERT_TRUE(result.status == 0 || result.status == 4) << result.output;
  EXPECT_NE(result.output.find("joystick " + fifo.string() + ": "), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("1 garbage"), std::string::npos) << result.output;

  // commands.log: each input at its tick, the mode released last
  std::ifstream log(run / "commands.log");
  std::vector<std::string> lines;
  for (std::string l; std::getline(log, l);) lines.push_back(l.substr(l.find(' ') + 1));
  ASSERT_FALSE(lines.empty());
  const auto has = [&](const std::string& l) {
    return std::find(lines.begin(), lines.end(), l) != lines.end();
  };
  for (const char* l : {"write driver.mode 1", "write driver.throttle 1", "write driver.steer 1",
                        "write driver.brake 1", "release driver.steer", "release driver.throttle",
                        "release driver.brake"}) {
    EXPECT_TRUE(has(l)) << l;
  }
  EXPECT_EQ(lines.back(), "release driver.mode");

  // the vehicle as commanded
  const std::filesystem::path csv = dir.path() / "csv";
  const CommandResult exported = run_hilsim("export " + run.string() + " --csv " + csv.string() +
                                            " --channels 'vehicle.body.*' --channels 'driver.*'");
  ASSERT_EQ(exported.status, 0) << exported.output;
  const std::vector<double> speed = column(csv, "vehicle.body.forward_speed");
  const std::vector<double> yaw_rate = column(csv, "vehicle.body.yaw_rate");
  const std::vector<double> steer = column(csv, "driver.steer");
  const std::vector<double> mode = column(csv, "driver.mode");
  ASSERT_FALSE(speed.empty());
  ASSERT_EQ(speed.size(), steer.size());
  ASSERT_EQ(speed.size(), yaw_rate.size());
  double fastest = 0.0;
  double left_turn = -1.0;
  std::size_t human = 0;
  for (std::size_t i = 0; i < speed.size(); ++i) {
    fastest = std::max(fastest, speed[i]);
    if (steer[i] == 1.0) left_turn = std::max(left_turn, yaw_rate[i]);
    human += mode[i] == 1.0 ? 1 : 0;
  }
  EXPECT_GT(fastest, 1.25);     // the scenario drives at 1 m/s; the driver asked for 1.4
  EXPECT_GT(left_turn, 0.3);    // left lock: turning left [rad/s]
  EXPECT_GT(human, 1000U);      // samples in HUMAN mode (1 kHz)
  EXPECT_EQ(mode.back(), 0.0);  // given back: AUTO

  const CommandResult replay = run_hilsim("replay " + run.string());
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical: "), std::string::npos) << replay.output;
}

}  // namespace
}  // namespace hil::tools::testing
