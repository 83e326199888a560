// The rig's own UDS tester (runtime/diag/diag_tester.hpp) in whole RAVON runs with the built-in
// ECU: it reads the DTCs (19 02 FF every 100 ms) into diag.dtc.<name>.status — −1 before the
// first read, then what the ECU has, at most one read period and a few ticks behind the ECU's
// own change — and serves API requests through the command queue (22 F1 90 → the VIN, 14 FF FF
// FF → cleared); a recorded run with `uds` commands is in commands.log and replays identically.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "tests/support/recorded_run.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::session {
namespace {

using Change = std::pair<std::int64_t, int>;
using Bytes = std::vector<std::uint8_t>;

constexpr std::int64_t kReadTicks = 400;  // 100 ms at RAVON's 250 µs
constexpr char kVin[] = "RAVON0HILSIM00001";

/// Each tick (record slot, after the tester and the ECU): the rig's status channel of
/// wheel_speeds_lost and the ECU's own status of it, kept when they change.
class Watch final : public rt::Stage {
 public:
  Watch(const rt::ChannelTable& table, rt::ChannelId channel) : table_(table), channel_(channel) {}
  void run(const rt::TickContext& c) noexcept override {
    const int rig = static_cast<int>(std::lround(table_.get(channel_)));
    if (rig_changes.empty() || rig_changes.back().second != rig)
      rig_changes.emplace_back(c.tick, rig);
    if (ecu != nullptr) {
      const int s = ecu->dtcs().status(0);
      if (ecu_changes.empty() || ecu_changes.back().second != s)
        ecu_changes.emplace_back(c.tick, s);
    }
  }
  const ecu::diag::EcuDiagnostics* ecu = nullptr;
  std::vector<Change> rig_changes, ecu_changes;

 private:
  const rt::ChannelTable& table_;
  rt::ChannelId channel_;
};

std::string text_of(const std::vector<Change>& changes) {
  std::ostringstream out;
  for (const auto& [tick, v] : changes) out << tick << ":" << std::hex << v << std::dec << " ";
  return out.str();
}

Bytes bytes_of(const runtime::UdsResult& r) {
  return {r.response.begin(), r.response.begin() + r.size};
}

TEST(DiagTesterRun, StatusChannelFollowsTheEcuAndApiRequestsAreAnswered) {
  config::ScenarioLoadResult loaded =
      config::load_scenario_text({"lost.pbtxt", R"(description: "wheel speeds lost for 200 ms"
duration_s: 3
drive { straight { speeds { at_s: 0 speed: 1 } } }
faults { name: "lost" start { at_s: 1 } stop { duration_s: 0.2 }
         message { bus: "ecu" name: "HIL_WheelSpeeds" drop {} } }
)"},
                                 HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
  ASSERT_TRUE(loaded.ok());
  loaded.rig->can[0].uri = "virtual:diag_tester_run_test";
  std::unique_ptr<Watch> watch;
  auto run =
      RunBuilder({.loaded = LoadedRig{.name = "ravon",
                                      .settings = std::move(*loaded.rig),
                                      .scenario = std::move(loaded.scenario)},
                  .clock = {.speed = {.mode = Speed::Mode::max}, .no_rt = true},
                  .quiet = true,
                  .extra_stages =
                      [&](runtime::TickPlan& plan, runtime::Rig& rig) {
                        watch = std::make_unique<Watch>(
                            rig.table(), rig.table().resolve("diag.dtc.wheel_speeds_lost.status"));
                        plan.add(runtime::Slot::record, "watch", *watch);
                      }})
          .build();
  ASSERT_NE(run->ecu, nullptr);
  ASSERT_NE(run->commands, nullptr);
  run->harness->jobs().stop();  // the acks and results are this thread's to take
  runtime::DiagTester* tester = run->rig->diag_tester();
  ASSERT_NE(tester, nullptr);
  watch->ecu = run->ecu->diagnostics();
  ASSERT_NE(watch->ecu, nullptr);

  const std::uint64_t vin_id = run->commands->uds("22F190");  // applied at tick 0
  ASSERT_EQ(run->run_until(6000).ticks, 6000);
  std::vector<runtime::AppliedCommand> applied = run->commands->take_applied();
  std::vector<runtime::UdsResult> results = tester->take_results();
  const std::uint64_t clear_id = run->commands->uds("14 FF FF FF");  // applied at tick 6000
  (void)run->run_until(run->scenario_ticks);
  for (auto& a : run->commands->take_applied()) applied.push_back(std::move(a));
  for (const auto& r : tester->take_results()) results.push_back(r);

  // The ECU's own status, as in ecu_dtc_test (the clear from the rig's tester at 6000 this
  // time): 0x50 at power-up, 0x00 once tested, 0x2F failing from 4320, 0x2E passing again from
  // 4920, cleared at 6001 and passing from 6120.
  const std::vector<Change> ecu{{0, 0x50},    {80, 0x00},   {4320, 0x2F},
                                {4920, 0x2E}, {6001, 0x50}, {6120, 0x00}};
  EXPECT_EQ(watch->ecu_changes, ecu) << text_of(watch->ecu_changes);
  // The rig's channel: −1 until the first read answers. 22 F1 90 went first (ticks 0–5), the
  // read then (5–11: 5 DTCs at 0x50, a multi-frame answer). Then a read every 400 ticks, each
  // answered 2 ticks later (a single frame while no status bit is set) or 6 (multi-frame): the
  // ECU's change shows at the next read. At 6000 the clear went first (6000–6002) and the read
  // due then after it (6002–6008).
  const std::vector<Change> rig{{0, -1},      {11, 0x50},   {402, 0x00}, {4402, 0x2F},
                                {5202, 0x2E}, {6008, 0x50}, {6402, 0x00}};
  EXPECT_EQ(watch->rig_changes, rig) << text_of(watch->rig_changes);
  // Whatever the exact ticks: every value the rig read is one the ECU had, shown at most one
  // read period and a few ticks after the ECU's change
  for (const auto& [tick, value] : watch->rig_changes) {
    if (value < 0) continue;
    const auto it = std::find_if(watch->ecu_changes.rbegin(), watch->ecu_changes.rend(),
                                 [t = tick](const Change& c) { return c.first <= t; });
    ASSERT_NE(it, watch->ecu_changes.rend());
    EXPECT_EQ(it->second, value) << "at " << tick;
    EXPECT_LE(tick - it->first, kReadTicks + 10) << "at " << tick;
  }
  EXPECT_EQ(tester->dtc_reads(), 30U);  // at 5, then 400, 800, … 11600

  ASSERT_EQ(applied.size(), 2U);
  EXPECT_EQ(applied[0].id, vin_id);
  EXPECT_EQ(applied[0].tick, 0);
  EXPECT_TRUE(applied[0].ok);
  EXPECT_EQ(applied[0].line, "uds 22F190");
  EXPECT_EQ(applied[1].id, clear_id);
  EXPECT_EQ(applied[1].tick, 6000);
  EXPECT_EQ(applied[1].line, "uds 14FFFFFF") << "as commands.log writes it";

  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].command, vin_id);
  EXPECT_EQ(results[0].sent_tick, 0);
  EXPECT_EQ(results[0].done_tick, 5);
  EXPECT_FALSE(results[0].timed_out || results[0].refused);
  const Bytes vin = bytes_of(results[0]);
  ASSERT_EQ(vin.size(), 20U);
  EXPECT_EQ(Bytes(vin.begin(), vin.begin() + 3), (Bytes{0x62, 0xF1, 0x90}));
  EXPECT_EQ(std::string(vin.begin() + 3, vin.end()), kVin);
  EXPECT_EQ(results[1].command, clear_id);
  EXPECT_EQ(results[1].sent_tick, 6000);
  EXPECT_EQ(results[1].done_tick, 6002);
  EXPECT_EQ(bytes_of(results[1]), (Bytes{0x54}));
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// The frames of `id` in can.log ("(s.us) bus ID#DATA"), as "ID#DATA".
std::vector<std::string> frames_of(const std::vector<std::string>& log, const std::string& id) {
  std::vector<std::string> out;
  for (const std::string& line : log) {
    std::istringstream words(line);
    std::string time, bus, frame;
    words >> time >> bus >> frame;
    if (frame.starts_with(id + "#")) out.push_back(frame);
  }
  return out;
}

// `uds` commands in a recorded run (the API's path: the command queue) with the DTC set and
// read meanwhile: in commands.log at their tick, their frames and the ECU's answers in can.log;
// the replay — no ECU, the answers from can.log — sends the same requests at the same ticks
// and reads the same statuses: identical. A different request in commands.log diverges.
TEST(DiagTesterRun, UdsCommandsAreLoggedAndReplayIdentically) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  RunSpec o = testing::recorded_run(dir, "1.5s");
  o.with_commands = [](runtime::CommandQueue& q) {  // before the run: applied at tick 0
    q.add_fault_text(R"(name: "lost" start { at_s: 0.5 } stop { duration_s: 0.2 }
                        message { bus: "ecu" name: "HIL_WheelSpeeds" drop {} })");
    q.uds("22F190");
    q.uds("functional 3E 00");
    q.uds("1902FF");
  };
  const int status = run_rig(o);
  ASSERT_TRUE(status == 0 || status == 4) << status;

  const std::vector<std::string> commands = lines_of(dir / "commands.log");
  ASSERT_EQ(commands.size(), 4U);
  EXPECT_EQ(commands[1], "0 uds 22F190");
  EXPECT_EQ(commands[2], "0 uds functional 3E00");
  EXPECT_EQ(commands[3], "0 uds 1902FF");

  const std::vector<std::string> can = lines_of(dir / "can.log");
  const std::vector<std::string> requests = frames_of(can, "7E0");
  ASSERT_GE(requests.size(), 3U);
  EXPECT_EQ(requests[0], "7E0#0322F190CCCCCCCC");
  EXPECT_EQ(frames_of(can, "7DF"), std::vector<std::string>{"7DF#023E00CCCCCCCCCC"})
      << "the functional request, and nothing else on the functional id";
  const std::vector<std::string> answers = frames_of(can, "7E8");
  ASSERT_GE(answers.size(), 3U);
  EXPECT_EQ(answers[0], "7E8#101462F190524156") << "the VIN's first frame: 62 F1 90 \"RAV\"";
  // 19 02 FF every 100 ms for 1.5 s and the API's: the DTC went to 0x2F (byte "2F") meanwhile
  std::size_t reads = 0;
  for (const std::string& f : requests) reads += f == "7E0#031902FFCCCCCCCC" ? 1 : 0;
  EXPECT_GE(reads, 15U);
  bool failed_seen = false;
  for (const std::string& f : answers) failed_seen |= f.find("C123002F") != std::string::npos;
  EXPECT_TRUE(failed_seen);

  ReplaySpec r = testing::replay_of(dir);
  EXPECT_EQ(replay(r), 0) << "the same requests at the same ticks, the same statuses";

  // the replay checks what the tester sends: another request diverges
  std::string text;
  for (std::string& line : lines_of(dir / "commands.log")) {
    if (line == "0 uds 22F190") line = "0 uds 22F18C";
    text += line + "\n";
  }
  std::ofstream(dir / "commands.log") << text;
  r.report = (tmp.path() / "changed.json").string();
  EXPECT_EQ(replay(r), 1) << "22 F1 8C instead of 22 F1 90";
}

}  // namespace
}  // namespace hil::session
