// `hilsim run` and `hilsim replay` as a user runs them (issues 6 and 7): a short run records
// its directory, the summary's numbers match timing.json, the recording replays identically,
// a changed parameter diverges at the right tick, can.log is readable by can-utils and
// python-can, a run killed with SIGKILL replays up to its last flush, bad log lines are
// reported with their line.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools {
namespace {

namespace fs = std::filesystem;
using testing::run_hilsim;

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One recorded 2 s run of the RAVON rig shared by the tests (no ECU: the vehicle sits in
/// its safe state, the rig sends its sensor frames, the timeouts fire at known ticks).
class HilsimRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new config::testing::TempDir();
    run_ = new testing::CommandResult(run_hilsim(
        "run --duration 2s --no-rt --ecu none -q --record " + (dir_->path() / "run").string()));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete dir_;
  }
  static fs::path run_dir() { return dir_->path() / "run"; }

  static config::testing::TempDir* dir_;
  static testing::CommandResult* run_;
};
config::testing::TempDir* HilsimRun::dir_ = nullptr;
testing::CommandResult* HilsimRun::run_ = nullptr;

TEST_F(HilsimRun, RecordsItsRunDirectoryAndTheSummaryMatchesTimingJson) {
  ASSERT_EQ(run_->status, 0) << run_->output;
  for (const char* f :
       {"manifest.json", "rig.pbtxt", "ravon.dbc", "can.log", "telemetry.mcap", "timing.json"}) {
    EXPECT_TRUE(fs::exists(run_dir() / f)) << f;
  }
  const nlohmann::json m = read_json(run_dir() / "manifest.json");
  EXPECT_EQ(m["ended"], "completed");
  EXPECT_EQ(m["ticks"], 8000);
  EXPECT_EQ(m["rig"], "ravon");
  EXPECT_EQ(m["period_ns"], 250000);
  EXPECT_EQ(m["config_hash"].get<std::string>().size(), 16U);
  EXPECT_FALSE(m["realtime"].get<bool>());
  EXPECT_EQ(m["recording"]["telemetry_samples"], 2000);  // 1 kHz of a 4 kHz loop
  EXPECT_GT(m["recording"]["can_frames"].get<int>(), 500);
  const nlohmann::json t = read_json(run_dir() / "timing.json");
  // The summary's figures are the timing file's
  std::smatch match;
  ASSERT_TRUE(
      std::regex_search(run_->output, match, std::regex(R"(ticks (\d+) at 250us, overruns (\d+))")))
      << run_->output;
  EXPECT_EQ(std::stoll(match[1]), t["ticks"].get<long long>());
  EXPECT_EQ(std::stoll(match[2]), t["overruns"].get<long long>());
  EXPECT_NE(run_->output.find("recording: " + run_dir().string()), std::string::npos);
}

TEST_F(HilsimRun, TheRecordingReplaysIdentically) {
  ASSERT_EQ(run_->status, 0);
  const testing::CommandResult r = run_hilsim("replay " + run_dir().string() + " --report " +
                                              (dir_->path() / "report.json").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("identical: "), std::string::npos) << r.output;
  const nlohmann::json report = read_json(dir_->path() / "report.json");
  EXPECT_TRUE(report["identical"].get<bool>());
  EXPECT_GT(report["frames_compared"].get<int>(), 500);
  EXPECT_EQ(report["samples_compared"], 2000);
}

TEST_F(HilsimRun, AChangedParameterDivergesAtTheTickItFirstMatters) {
  ASSERT_EQ(run_->status, 0);
  // The safe state's parking brake value matters only once the ECU's timeout (3 cycles of
  // 20 ms = 240 ticks) and the hold (one cycle, 80 ticks) have passed: from tick 321 on; the
  // first recorded sample after it (every 4th tick) is 324.
  std::string rig = read_text(run_dir() / "rig.pbtxt");
  const std::string safe = "channel: \"vehicle.brake.park\"\n          value: 1";
  int replaced = 0;  // both messages from the ECU park the vehicle when they time out
  for (auto at = rig.find(safe); at != std::string::npos; at = rig.find(safe, at), ++replaced) {
    rig.replace(at, safe.size(), "channel: \"vehicle.brake.park\"\n          value: 0.5");
  }
  ASSERT_EQ(replaced, 2);
  // Next to the recorded rig, where the DBC it names lives.
  const fs::path override_file = run_dir() / "half_park.pbtxt";
  std::ofstream(override_file) << rig;
  const testing::CommandResult r =
      run_hilsim("replay " + run_dir().string() + " --override " + override_file.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("DIVERGED at tick 324 (0.0810 s): channel vehicle.brake.park: "
                          "expected 1, got 0.5"),
            std::string::npos)
      << r.output;

  const fs::path heavier = dir_->write("heavier.pbtxt", "vehicle { sprung { mass: 650 } }\n");
  const testing::CommandResult m =
      run_hilsim("replay " + run_dir().string() + " --override " + heavier.string());
  EXPECT_EQ(m.status, 1);
  EXPECT_NE(m.output.find("DIVERGED at tick 0 "), std::string::npos) << m.output;
}

TEST_F(HilsimRun, CanLogIsReadByLog2ascAndPythonCan) {
  ASSERT_EQ(run_->status, 0);
  const fs::path asc = dir_->path() / "run.asc";
  const std::string log = (run_dir() / "can.log").string();
  ASSERT_EQ(std::system(("log2asc -I " + log + " -O " + asc.string() + " ecu").c_str()), 0);
  const std::string asc_text = read_text(asc);
  EXPECT_NE(asc_text.find("Tx   d 8"), std::string::npos);  // the rig's frames are Tx
  // python-can reads every frame back: count and ids against the file's own lines
  const std::string script =
      "import can, sys\n"
      "n = 0\n"
      "for m in can.CanutilsLogReader(sys.argv[1]):\n"
      "    n += 1\n"
      "    assert m.arbitration_id in (0x200, 0x201, 0x210, 0x220, 0x230, 0x240, 0x250), "
      "hex(m.arbitration_id)\n"
      "    assert not m.is_rx\n"
      "print(n)\n";
  const fs::path py = dir_->write("read.py", script);
  const testing::CommandResult read =
      io::testing::run_command("/usr/bin/python3 " + py.string() + " " + log, false);
  ASSERT_EQ(read.status, 0) << read.output;
  std::size_t lines = 0;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(std::stoul(read.output), lines);
}

TEST_F(HilsimRun, CanLogExportsAsBlfThatPythonCanAndWeReadBack) {
  ASSERT_EQ(run_->status, 0);
  const fs::path blf = dir_->path() / "run.blf";
  const testing::CommandResult exported =
      run_hilsim("export " + run_dir().string() + " --blf " + blf.string());
  ASSERT_EQ(exported.status, 0) << exported.output;
  std::size_t lines = 0;
  std::size_t sent = 0;
  std::ifstream in(run_dir() / "can.log");
  for (std::string line; std::getline(in, line);) {
    ++lines;
    if (line.ends_with(" T")) ++sent;
  }
  EXPECT_NE(exported.output.find(fmt::format("exported {} frames of", lines)), std::string::npos)
      << exported.output;
  EXPECT_NE(exported.output.find("(BLF; ecu → channel 1)"), std::string::npos) << exported.output;
  // python-can: every frame, the rig's sent as transmitted on channel 1 (python's 0)
  const testing::CommandResult read = io::testing::run_command(
      "/usr/bin/python3 " HIL_SOURCE_DIR "/tests/io/can/trace/python_can_read_blf.py " +
          blf.string(),
      false);
  if (read.status != 0 && read.output.find("No module named 'can'") != std::string::npos) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  ASSERT_EQ(read.status, 0) << read.output;
  std::istringstream python(read.output);
  std::size_t read_lines = 0;
  std::size_t read_sent = 0;
  for (std::string line; std::getline(python, line);) {
    ++read_lines;
    if (line.find(" ch=0 ") == std::string::npos) ADD_FAILURE() << line;
    if (line.find(" rx=0 ") != std::string::npos) ++read_sent;
  }
  EXPECT_EQ(read_lines, lines);
  EXPECT_EQ(read_sent, sent);
  EXPECT_GT(sent, 500U);
  // and our own reader, through the rig's DBC
  const testing::CommandResult decoded =
      run_hilsim("dbc decode " + (run_dir() / "ravon.dbc").string() + " --log " + blf.string());
  ASSERT_EQ(decoded.status, 0) << decoded.output;
  EXPECT_NE(decoded.output.find(fmt::format("(blf; times since the first frame): {} frames, {} "
                                            "decoded, 0 with ids not in",
                                            lines, lines)),
            std::string::npos)
      << decoded.output.substr(decoded.output.size() - 400);
}

TEST_F(HilsimRun, MalformedLogLinesAreReportedWithTheirLineOrSkippedWhenLenient) {
  ASSERT_EQ(run_->status, 0);
  const fs::path copy = dir_->path() / "damaged";
  fs::copy(run_dir(), copy);
  {
    std::ofstream out(copy / "can.log", std::ios::app);
    out << "(garbage) ecu 12#\n";
  }
  std::size_t lines = 0;
  {
    std::ifstream in(copy / "can.log");
    for (std::string line; std::getline(in, line);) ++lines;
  }
  const testing::CommandResult strict = run_hilsim("replay " + copy.string());
  EXPECT_EQ(strict.status, 2);
  EXPECT_NE(strict.output.find("can.log:" + std::to_string(lines) + ":"), std::string::npos)
      << strict.output;
  const testing::CommandResult lenient = run_hilsim("replay --lenient " + copy.string());
  EXPECT_EQ(lenient.status, 0) << lenient.output;
  EXPECT_NE(lenient.output.find("skipped 1 malformed line"), std::string::npos);
}

TEST(HilsimRunKilled, ARunKilledWithSigkillReplaysUpToItsLastFlush) {
  const config::testing::TempDir dir;
  const fs::path run = dir.path() / "killed";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execl(HILSIM_BINARY, "hilsim", "run", "--no-rt", "--ecu", "none", "-q", "--record", run.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));  // > 3 flushes
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(read_json(run / "manifest.json")["ended"], "running");  // it never finished
  const testing::CommandResult r = run_hilsim("replay " + run.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("identical: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cut short"), std::string::npos) << r.output;
}

// The main job with its defaults (RAVON, the built-in ECU driving the double lane change in
// process, recorded, real-time when privileged), cut to 30 simulated seconds: far enough for
// the course's first lane (x 11..26 m at 1 m/s).
TEST(HilsimDefaultRun, PassesTheFirstLaneReplaysIdenticallyAndReportsWhatTimingJsonSays) {
  const config::testing::TempDir dir;
  const fs::path run = dir.path() / "run";
  const testing::CommandResult r = run_hilsim("run --duration 30s -q --record " + run.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("hilsim run: ravon, scenario double_lane_change — completed"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("ECU: virtual (in process)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("scenario: passed so far: the run ended at 30.0 s, 1 of 5 gates"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("[pass] section 1: smallest clearance"), std::string::npos) << r.output;

  // The ECU drove: 30 s of its 50 Hz command messages, none late
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m,
                                std::regex(R"(ECU frames in (\d+) .*out (\d+) .*timeouts (\d+))")))
      << r.output;
  EXPECT_EQ(std::stoll(m[1]), 2 * 50 * 30);  // ECU_Drive and ECU_Steer at 20 ms
  EXPECT_GT(std::stoll(m[2]), 0);
  EXPECT_EQ(std::stoll(m[3]), 0);

  // The summary's figures are the timing file's
  const nlohmann::json t = read_json(run / "timing.json");
  ASSERT_TRUE(std::regex_search(
      r.output, m,
      std::regex(
          R"(ticks (\d+) at 250us, overruns (\d+), wake-up latency p99 (\d+) us, max ([\d.]+) us)")))
      << r.output;
  EXPECT_EQ(std::stoll(m[1]), t["ticks"].get<long long>());
  EXPECT_EQ(std::stoll(m[1]), 120000);
  EXPECT_EQ(std::stoll(m[2]), t["overruns"].get<long long>());
  EXPECT_EQ(std::stod(m[3]), std::round(t["wake_latency_us"]["p99"].get<double>()));
  EXPECT_NEAR(std::stod(m[4]), t["wake_latency_us"]["max"].get<double>(), 0.05);
  const nlohmann::json manifest = read_json(run / "manifest.json");
  EXPECT_EQ(manifest["scenario"], "double_lane_change");
  EXPECT_TRUE(fs::exists(run / "scenario.pbtxt"));

  // The recording replays identically: the ECU's frames from can.log, the scenario's events
  // and start pose from scenario.pbtxt
  const testing::CommandResult replay = run_hilsim("replay " + run.string());
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical: "), std::string::npos) << replay.output;
}

// The scenario × rig matrix's replay sample (issue 20): the HMMWV's 60 km/h lane change at
// --speed max — the Stanley steering and the speed cascade in the loop — passes and replays
// identically.
TEST(HilsimScenarioReplay, TheHmmwvsSixtyKmhLaneChangePassesAndReplaysIdentically) {
  const config::testing::TempDir dir;
  const fs::path run = dir.path() / "run";
  const testing::CommandResult r = run_hilsim(
      "run --rig hmmwv --scenario hmmwv_double_lane_change_60 --speed max --no-rt "
      "--console off -q --record " +
      run.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("scenario: passed (5 gates)"), std::string::npos) << r.output;
  const testing::CommandResult replay = run_hilsim("replay " + run.string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical: "), std::string::npos) << replay.output;
}

TEST(HilsimReplayLog, ABlfTraceReplaysIntoARigAsItsCandumpTwinDoes) {
  if (io::testing::run_command("/usr/bin/python3 -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const config::testing::TempDir dir;
  // A vehicle's CAN trace: what the built-in ECU sent in a 1 s run. Every frame after the
  // first moves half a tick later, so that python-can's timestamps (doubles of epoch seconds,
  // ~0.2 µs off) cannot put a frame on the other side of a tick boundary.
  const testing::CommandResult run = run_hilsim(
      "run --duration 1s --no-rt --speed max -q --record " + (dir.path() / "run").string());
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream recorded(dir.path() / "run" / "can.log");
  std::ofstream trace(dir.path() / "ecu.log");
  int frames = 0;
  for (std::string line; std::getline(recorded, line);) {
    if (!line.ends_with(" R")) continue;
    const std::size_t dot = line.find('.');
    long long micros = std::stoll(line.substr(dot + 1, 6)) + (frames == 0 ? 0 : 125);
    const long long seconds = std::stoll(line.substr(1, dot - 1)) + micros / 1'000'000;
    micros %= 1'000'000;
    trace << fmt::format("({}.{:06}){}\n", seconds, micros,
                         line.substr(line.find(')') + 1, line.size() - line.find(')') - 3));
    ++frames;
  }
  trace.close();
  ASSERT_GT(frames, 90);
  const fs::path blf = dir.path() / "ecu.blf";
  const testing::CommandResult convert = io::testing::run_command(
      "/usr/bin/python3 " HIL_SOURCE_DIR "/tests/io/can/trace/python_can_write_blf.py " +
      (dir.path() / "ecu.log").string() + " " + blf.string() + " 1000");
  ASSERT_EQ(convert.status, 0) << convert.output;

  std::vector<std::string> exported;
  for (const char* source : {"ecu.log", "ecu.blf"}) {
    const fs::path out = dir.path() / (std::string(source) + ".run");
    const testing::CommandResult replay =
        run_hilsim(fmt::format("replay {} --rig ravon --speed max -q --record {}",
                               (dir.path() / source).string(), out.string()));
    ASSERT_EQ(replay.status, 0) << replay.output;
    EXPECT_NE(replay.output.find(fmt::format("replayed {} frames of", frames)), std::string::npos)
        << replay.output;
    const testing::CommandResult csv =
        run_hilsim("export " + out.string() + " --csv " + (out / "csv").string());
    ASSERT_EQ(csv.status, 0) << csv.output;
    std::string all;
    for (const auto& f : fs::directory_iterator(out / "csv")) {
      if (f.path().filename() != "events.csv") all += read_text(f.path());
    }
    exported.push_back(all);
  }
  EXPECT_GT(exported[0].size(), 100'000U);
  EXPECT_TRUE(exported[0] == exported[1]) << "the BLF's replay differs from its log's";
}

}  // namespace
}  // namespace hil::tools
