// The sweep's worker (issue 41, tools/sweep/sweep_worker.hpp): a fork server that warms up once
// and forks a child per variant. With a stand-in for hilsim: the warm-up runs once, in the
// worker; every variant is a child of its own that sees nothing another variant did; a
// variant that aborts, one killed by SIGKILL (as the OOM killer would) and one that hangs
// are reported and the others finish. With the real hilsim: a sweep's results.csv is byte
// for byte the one of its variants run each in a process of its own, and every run's recorded
// files (what is deterministic in them) are those of `hilsim run` of the same variant alone.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "config/sweep/sweep_plan.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/sweep/sweep_collect.hpp"
#include "tools/sweep/sweep_runner.hpp"

namespace hil::sweep {
namespace {

namespace fs = std::filesystem;
using config::testing::TempDir;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int g_variants_run = 0;  // per process: what a variant's child saw before it ran
int g_warm_ups = 0;      // in the worker

/// A stand-in for `hilsim run`: the variant's mass says what it does — 101 passes, 106
/// aborts, 107 is killed by SIGKILL, 105 hangs. It writes how many variants its process ran
/// before it (its own included) into its manifest's gate figure.
int fake_run(const session::RunSpec& o) {
  const std::string overlay = read(o.rig.overlays.at(0));
  const std::size_t at = overlay.find("mass: ");
  const int mass = at == std::string::npos ? 0 : std::stoi(overlay.substr(at + 6));
  const fs::path record = *o.record_dir;
  fs::create_directories(record);
  ++g_variants_run;
  switch (mass) {
    case 106:
      std::abort();
    case 107:
      std::raise(SIGKILL);
      return 0;
    case 105:
      for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    default:
      break;
  }
  std::ofstream(record / "manifest.json") << fmt::format(
      R"({{"simulated_s": 1, "scenario_gates": [
 {{"name": "runs seen", "result": "passed", "value": {}, "unit": "", "detail": "d"}}]}})",
      g_variants_run);
  return 0;
}

int fake_warm_up(const session::RunSpec& o) {
  ++g_warm_ups;
  EXPECT_EQ(o.duration, "20ms");  // a few ticks, not the variant
  EXPECT_TRUE(o.quiet);
  fs::create_directories(*o.record_dir);
  return 0;
}

TEST(SweepWorker, WarmsUpOnceThenEveryVariantIsAChildOfItsOwn) {
  const TempDir dir;
  const config::SweepLoad load = config::load_sweep(dir.write("plan.pbtxt", R"(
rig: "ravon"
grid { field: "vehicle.sprung.mass" values: [101, 106, 101, 107, 105, 101] }
timeout_s: 1
)"));
  ASSERT_TRUE(load.ok()) << load.errors.front().to_string();
  const fs::path out = dir.path() / "out";
  write_plan_json(*load.plan, out);
  const std::vector<std::size_t> all{0, 1, 2, 3, 4, 5};
  g_warm_ups = 0;
  g_variants_run = 0;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<VariantOutcome> outcomes = run_variants(
      *load.plan, all,
      {.out = out, .jobs = 1, .progress = false, .run_variant = fake_run, .warm_up = fake_warm_up});
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(g_warm_ups, 1);
  EXPECT_EQ(g_variants_run, 0);  // none ran in the worker
  ASSERT_EQ(outcomes.size(), 6U);
  EXPECT_EQ(outcomes[0].status, Status::passed);
  EXPECT_EQ(outcomes[1].status, Status::crashed);
  EXPECT_EQ(outcomes[1].signal, SIGABRT);
  EXPECT_EQ(outcomes[2].status, Status::passed);
  EXPECT_EQ(outcomes[3].status, Status::crashed);
  EXPECT_EQ(outcomes[3].signal, SIGKILL);
  EXPECT_EQ(outcomes[4].status, Status::timed_out);
  EXPECT_EQ(outcomes[5].status, Status::passed);  // after the hang, in the same slot
  // one slot: the hang cost its timeout (1 s) and SIGTERM's effect, not the 20 ms polls of old
  EXPECT_LT(took, 4.0);

  std::set<int> children;
  for (std::size_t i = 0; i < 6; ++i) {
    const nlohmann::json s = nlohmann::json::parse(read(run_directory(out, i) / "sweep.json"));
    EXPECT_EQ(s["worker"]["pid"], getpid()) << i;
    EXPECT_EQ(s["worker"]["warm"], true) << i;
    children.insert(s["worker"]["child_pid"].get<int>());
  }
  EXPECT_EQ(children.size(), 6U);  // a child per variant
  EXPECT_FALSE(children.contains(getpid()));
  // Each passed variant saw only itself: no state carried from one variant to the next
  const Collected c = collect_sweep(out);
  const std::string csv = read(out / "results.csv");
  EXPECT_EQ(c.passed, 3U);
  EXPECT_EQ(c.went_wrong, 3U);
  for (const std::size_t i : {0, 2, 5}) {
    EXPECT_NE(csv.find(fmt::format(",101,passed,0,1,1,runs/{:06}\n", i)), std::string::npos) << csv;
  }
}

// --- the real hilsim ----------------------------------------------------------------------

io::testing::CommandResult hilsim(const std::string& args) {
  return io::testing::run_command(std::string(HILSIM_BINARY) + " " + args);
}

/// can.log with each frame's time made relative to the run's start (the first line's).
std::string relative_can_log(const fs::path& file) {
  std::istringstream in(read(file));
  std::string out;
  std::string line;
  long double first = -1;
  while (std::getline(in, line)) {
    const std::size_t close = line.find(')');
    if (line.empty() || line.front() != '(' || close == std::string::npos) {
      out += line + "\n";
      continue;
    }
    const long double t = std::stold(line.substr(1, close - 1));
    if (first < 0) first = t;
    out += fmt::format("({:.6f}){}\n", static_cast<double>(t - first), line.substr(close + 1));
  }
  return out;
}

/// manifest.json without what depends on the wall clock or the machine's load.
nlohmann::json deterministic_manifest(const fs::path& run) {
  nlohmann::json m = nlohmann::json::parse(read(run / "manifest.json"));
  for (const char* key : {"start_epoch_ns", "start_time_utc", "wall_s", "overruns", "recording",
                          "realtime_summary"}) {
    m.erase(key);
  }
  return m;
}

/// Every CSV `hilsim export` writes of the run's telemetry (times from the tick), by name.
std::map<std::string, std::string> exported(const fs::path& run, const fs::path& to) {
  const auto r = hilsim(fmt::format("export {} --csv {}", run.string(), to.string()));
  EXPECT_EQ(r.status, 0) << r.output;
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(to)) {
    files[e.path().filename().string()] = read(e.path());
  }
  return files;
}

TEST(SweepWorker, ResultsAreByteIdenticalToVariantsRunOneByOne) {
  const TempDir dir;
  const fs::path plan = dir.write("mc.pbtxt", R"(
rig: "ravon"
scenarios: "straight_accel_brake"
random { field: "vehicle.sprung.mass" uniform { min: 700 max: 1100 } }
random { field: "terrain.surface.friction_scale" normal { mean: 1 sigma: 0.2 min: 0.5 max: 1.5 } }
samples: 3
noise_seeds: true
duration_s: 1.5
seed: 41
)");
  // One worker for all (two at once), and each variant in a worker of its own
  const fs::path together = dir.path() / "together";
  const auto all = hilsim(
      fmt::format("sweep run {} --local -j 2 -q --out {}", plan.string(), together.string()));
  ASSERT_EQ(all.status, 0) << all.output;
  const fs::path alone = dir.path() / "alone";
  for (int i = 0; i < 3; ++i) {
    const auto one = hilsim(
        fmt::format("sweep run {} --index {} -q --out {}", plan.string(), i, alone.string()));
    ASSERT_EQ(one.status, 0) << one.output;
  }
  for (const fs::path& d : {together, alone}) {
    const auto c = hilsim("sweep collect " + d.string());
    ASSERT_EQ(c.status, 0) << c.output;
  }
  EXPECT_EQ(read(together / "results.csv"), read(alone / "results.csv"));
  EXPECT_EQ(std::ranges::count(read(together / "results.csv"), '\n'), 4);

  // Each variant as `hilsim run` of its overlay: the same recorded files
  std::vector<std::map<std::string, std::string>> telemetry;
  for (int i = 0; i < 3; ++i) {
    const fs::path swept = run_directory(together, static_cast<std::size_t>(i));
    const fs::path run = dir.path() / fmt::format("run{}", i);
    const auto r = hilsim(fmt::format(
        "run --rig ravon --scenario straight_accel_brake --overlay {} --speed max --no-rt "
        "--console off -q --duration 1.5s --record {}",
        (together / "variants" / fmt::format("{:06}.pbtxt", i)).string(), run.string()));
    ASSERT_EQ(r.status, 0) << r.output;
    for (const char* name : {"rig.pbtxt", "scenario.pbtxt", "ravon.dbc"}) {
      EXPECT_EQ(read(swept / name), read(run / name)) << i << " " << name;
    }
    EXPECT_EQ(relative_can_log(swept / "can.log"), relative_can_log(run / "can.log")) << i;
    EXPECT_EQ(deterministic_manifest(swept), deterministic_manifest(run)) << i;
    const auto a = exported(swept, dir.path() / fmt::format("csv_swept{}", i));
    const auto b = exported(run, dir.path() / fmt::format("csv_run{}", i));
    EXPECT_GT(a.size(), 5U);
    EXPECT_EQ(a, b) << i;
    telemetry.push_back(a);
  }
  EXPECT_NE(telemetry[0], telemetry[1]);  // the variants differ: the comparison could fail
  // and the worker's runs replay identically
  const auto replay = hilsim("replay " + run_directory(together, 2).string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
}

}  // namespace
}  // namespace hil::sweep
