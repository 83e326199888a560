// FMUs on a worker thread (issue 18; docs/fmu.md "Real-time"): the probe moves an FMU that
// allocates (or is too slow) off the RT thread, where its outputs come one FMU step later; a
// run paced by real time never waits for it — late steps are counted and recorded in fmu.log,
// an FMU too far behind goes to its safe values — and every such run replays identically.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "runtime/fmu/fmu_log.hpp"
#include "tests/fmu/hilsim_command.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::session {
namespace {

namespace fs = std::filesystem;
using config::testing::TempDir;
using fmu_testing::hilsim;
using fmu_testing::read_text;

/// The first-order FMU (FMI 3) lagging the vehicle's speed, output y driving nothing: the
/// vehicle runs the same whatever the FMU does.
fs::path overlay(const TempDir& dir, const std::string& name, const std::string& extra) {
  return dir.write(name,
                   fmt::format("fmus {{\n  path: \"{}/first_order_fmi3.fmu\"\n"
                               "  instance: \"lag\"\n"
                               "  parameters {{ name: \"T\" value: 0.2 }}\n"
                               "  parameters {{ name: \"k\" value: 2 }}\n"
                               "  inputs {{ channel: \"vehicle.body.speed\" variable: \"u\" }}\n"
                               "  outputs {{ variable: \"y\" }}\n{}}}\n",
                               HIL_FMU_DIR, extra));
}

/// fmu.lag.y by tick, from the run's telemetry.
std::map<std::int64_t, double> lag_output(const fs::path& run, const fs::path& csv_dir) {
  const auto exported =
      hilsim(fmt::format("export {} --csv {} --channels 'fmu.*'", run.string(), csv_dir.string()));
  EXPECT_EQ(exported.status, 0) << exported.output;
  std::istringstream rows(read_text(csv_dir / "fmu.lag.csv"));
  std::string row;
  std::getline(rows, row);  // time_s,tick,fmu.lag.y
  std::map<std::int64_t, double> y;
  while (std::getline(rows, row)) {
    const auto a = row.find(',');
    const auto b = row.find(',', a + 1);
    y[std::stoll(row.substr(a + 1, b - a - 1))] = std::stod(row.substr(b + 1));
  }
  return y;
}

std::string run_rig(const fs::path& o, const fs::path& run, const std::string& options) {
  const auto r = hilsim(fmt::format("run --overlay {} {} --no-rt --console off -q --record {}",
                                    o.string(), options, run.string()));
  EXPECT_EQ(r.status, 0) << r.output;
  return r.output;
}

void expect_identical_replay(const fs::path& run) {
  const auto replay = hilsim("replay " + run.string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
}

TEST(FmuOnAWorker, AnFmuThatAllocatesStepsOnAWorkerWithItsOutputsOneStepLater) {
  const TempDir dir;
  const std::string body = "  every_ticks: 4\n  parameters { name: \"allocate\" value: 1 }\n";
  const fs::path on_rt = dir.path() / "rt";
  const fs::path on_worker = dir.path() / "worker";
  const std::string rt_out = run_rig(overlay(dir, "rt.pbtxt", body + "  thread: RT_THREAD\n"),
                                     on_rt, "--duration 1s --speed max");
  EXPECT_NE(rt_out.find("none failed; on the RT thread; probe: 50 allocations"), std::string::npos)
      << rt_out;
  const std::string out =
      run_rig(overlay(dir, "auto.pbtxt", body), on_worker, "--duration 1s --speed max");
  EXPECT_NE(out.find("fmu lag: 1000 steps of 0.001 s, none failed; on a worker thread (outputs "
                     "one step later), 0 late steps; probe: 50 allocations in 50 steps"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("NOT real-time safe (it allocates in its steps)"), std::string::npos) << out;
  const nlohmann::json manifest = nlohmann::json::parse(read_text(on_worker / "manifest.json"));
  EXPECT_EQ(manifest["fmus"][0]["thread"], "worker");
  EXPECT_EQ(manifest["fmus"][0]["late_steps"], 0);
  // The run directory says where it stepped: its replay steps it there, whatever its probe says
  EXPECT_NE(read_text(on_worker / "rig.pbtxt").find("thread: WORKER"), std::string::npos);
  EXPECT_NE(read_text(on_rt / "rig.pbtxt").find("thread: RT_THREAD"), std::string::npos);

  // The same FMU, the same inputs: on the worker, step j's outputs come at tick 4·j instead of
  // 4·(j − 1), bit for bit
  const auto rt_y = lag_output(on_rt, dir.path() / "rt_csv");
  const auto worker_y = lag_output(on_worker, dir.path() / "worker_csv");
  ASSERT_GT(worker_y.size(), 500U);
  int compared = 0;
  for (const auto& [tick, y] : worker_y) {
    const auto earlier = rt_y.find(tick - 4);
    if (tick < 4 || earlier == rt_y.end()) continue;
    ASSERT_EQ(y, earlier->second) << "tick " << tick;
    ++compared;
  }
  EXPECT_GT(compared, 500);
  EXPECT_EQ(worker_y.at(0), 0.0);  // the initialisation's output (x0 = 0) until step 1 is due
  EXPECT_GT(worker_y.rbegin()->second, 0.5);  // lagging twice the speed
  expect_identical_replay(on_worker);
}

TEST(FmuOnAWorker, ASlowFmuIsLateInRealTimeRecordedAndReplayedIdentically) {
  const TempDir dir;
  const fs::path run = dir.path() / "run";
  // Every 10th step sleeps 1 ms (4 ticks): the tick takes the newest finished step meanwhile
  const std::string out =
      run_rig(overlay(dir, "slow.pbtxt", "  parameters { name: \"stall_us\" value: 1000 }\n"), run,
              "--duration 0.5s --speed realtime");
  (void)out;
  const nlohmann::json manifest = nlohmann::json::parse(read_text(run / "manifest.json"));
  EXPECT_EQ(manifest["fmus"][0]["thread"], "worker");
  EXPECT_GT(manifest["fmus"][0]["late_steps"].get<int>(), 20) << manifest.dump(1);
  EXPECT_EQ(manifest["fmus"][0]["failed"], false);
  EXPECT_NE(manifest["fmus"][0]["report"].get<std::string>().find("its slowest step is over"),
            std::string::npos)
      << manifest.dump(1);
  const auto events = runtime::read_fmu_log(run / "fmu.log");
  ASSERT_EQ(events.count("lag"), 1U);
  std::size_t late = 0;
  for (const runtime::FmuEvent& e : events.at("lag")) {
    if (e.taken == runtime::FmuEvent::kBehind) continue;  // a machine busy enough for 16 ms
    EXPECT_LT(e.taken, e.tick);  // step j is due at tick j (every tick): taken older
    ++late;
  }
  EXPECT_EQ(late, manifest["fmus"][0]["late_steps"].get<std::size_t>());
  expect_identical_replay(run);
}

TEST(FmuOnAWorker, AnFmuThatFallsBehindGoesToItsSafeValuesAndReplaysIdentically) {
  const TempDir dir;
  const fs::path run = dir.path() / "run";
  // Every 10th step sleeps 30 ms (120 ticks): more than the 64 steps the worker may be behind
  const std::string out = run_rig(overlay(dir, "stuck.pbtxt",
                                          "  parameters { name: \"stall_us\" value: 30000 }\n  "
                                          "parameters { name: \"x0\" value: 0.5 }\n"),
                                  run, "--duration 0.3s --speed realtime");
  EXPECT_NE(out.find("64 steps behind at "), std::string::npos) << out;
  EXPECT_NE(out.find("outputs at their safe values since"), std::string::npos) << out;
  const std::string log = read_text(run / "fmu.log");
  EXPECT_NE(log.find(" lag behind\n"), std::string::npos) << log;
  const auto y = lag_output(run, dir.path() / "csv");
  EXPECT_EQ(y.rbegin()->second, 0.0);  // safe: y declares no start value
  expect_identical_replay(run);
}

TEST(FmuLog, AMalformedLineIsLocated) {
  const TempDir dir;
  const fs::path ok = dir.write("ok.log", "# hilsim fmu.log 1\n12 lag late 10\n30 lag behind\n");
  const auto events = runtime::read_fmu_log(ok);
  ASSERT_EQ(events.at("lag").size(), 2U);
  EXPECT_EQ(events.at("lag")[0], (runtime::FmuEvent{.tick = 12, .taken = 10}));
  EXPECT_EQ(events.at("lag")[1], (runtime::FmuEvent{.tick = 30, .taken = -1}));
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"12 lag late\n", "bad.log:1: \"12 lag late\": expected <tick> <instance> late"},
           {"12 lag late x\n", "bad.log:1:"},
           {"12 lag soon 3\n", "bad.log:1:"},
           {"12 lag behind 3\n", "bad.log:1:"},
           {"12 lag late 3\n10 lag late 2\n", "bad.log:2: tick 10 is before the previous"}}) {
    const fs::path bad = dir.write("bad.log", text);
    try {
      (void)runtime::read_fmu_log(bad);
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace hil::session
