// Sweeps (issue 17; the plans: tests/config/sweep/sweep_plan_test.cpp): the runner against a
// stand-in for hilsim that passes, fails, errs, crashes and hangs on cue (every outcome reported,
// none stopping the others, done ones not run again), collect's table and summary, and the real
// hilsim through the command line: --local, and the task index from SLURM_ARRAY_TASK_ID or
// JOB_COMPLETION_INDEX.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
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

/// A stand-in for `hilsim run` in the variant's child: reads its overlay and record directory
/// and behaves as the variant's mass says: 101 passes, 102 fails its gates, 103 cannot set
/// up, 104 crashes, 105 hangs.
int fake_run(const session::RunSpec& o) {
  std::ifstream overlay(o.rig.overlays.at(0));
  std::stringstream text;
  text << overlay.rdbuf();
  const std::size_t at = text.str().find("mass: ");
  const int mass = at == std::string::npos ? 0 : std::stoi(text.str().substr(at + 6));
  fmt::print("fake run of mass {}\n", mass);
  const fs::path record = *o.record_dir;
  switch (mass) {
    case 103:
      fmt::print("error: setup failed\n");
      return 1;
    case 104:
      fs::create_directories(record);
      std::raise(SIGSEGV);
      return 0;
    case 105:
      fs::create_directories(record);
      for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    default:
      break;
  }
  fs::create_directories(record);
  const char* gate = mass == 102 ? "failed" : "passed";
  std::ofstream(record / "manifest.json")
      << fmt::format(R"({{"simulated_s": 14, "overruns": 0, "scenario_gates": [
 {{"name": "reaches speed", "result": "{}", "value": 3.5, "unit": "s", "detail": "d"}}]}})",
                     gate);
  return mass == 102 ? 4 : 0;
}

TEST(SweepRunner, EveryOutcomeIsReportedAndNoneStopsTheOthers) {
  const TempDir dir;
  const config::SweepLoad load = config::load_sweep(dir.write("plan.pbtxt", R"(
rig: "ravon"
grid { field: "vehicle.sprung.mass" values: [101, 102, 103, 104, 105, 101] }
timeout_s: 1
)"));
  ASSERT_TRUE(load.ok()) << load.errors.front().to_string();
  const fs::path out = dir.path() / "out";
  write_plan_json(*load.plan, out);
  const std::vector<std::size_t> all{0, 1, 2, 3, 4, 5};
  const RunnerSpec options{.out = out, .jobs = 2, .progress = false, .run_variant = fake_run};
  const std::vector<VariantOutcome> first = run_variants(*load.plan, all, options);
  ASSERT_EQ(first.size(), 6U);
  EXPECT_EQ(first[0].status, Status::passed);
  EXPECT_EQ(first[1].status, Status::failed);
  EXPECT_EQ(first[1].exit_status, 4);
  EXPECT_EQ(first[2].status, Status::error);
  EXPECT_EQ(first[2].exit_status, 1);
  EXPECT_EQ(first[3].status, Status::crashed);
  EXPECT_EQ(first[3].signal, SIGSEGV);
  EXPECT_EQ(first[4].status, Status::timed_out);
  EXPECT_EQ(first[5].status, Status::passed);
  EXPECT_EQ(sweep_exit_status(first), 1);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(fs::exists(run_directory(out, i) / "sweep.json")) << i;
    EXPECT_TRUE(fs::exists(run_directory(out, i) / "run.log")) << i;
  }
  std::ifstream log(run_directory(out, 2) / "run.log");
  std::stringstream text;
  text << log.rdbuf();
  EXPECT_NE(text.str().find("error: setup failed"), std::string::npos);
  // No temporary left behind
  for (const auto& entry : fs::directory_iterator(out / "runs")) {
    EXPECT_NE(entry.path().filename().string().front(), '.') << entry.path();
  }

  // Run again: what passed or failed is done; the rest runs again
  const std::vector<VariantOutcome> second = run_variants(*load.plan, all, options);
  ASSERT_EQ(second.size(), 6U);
  for (const std::size_t i : {0, 1, 5}) EXPECT_TRUE(second[i].skipped) << i;
  for (const std::size_t i : {2, 3, 4}) EXPECT_FALSE(second[i].skipped) << i;

  // Collect: the table and the summary
  fs::remove_all(run_directory(out, 5));
  const Collected c = collect_sweep(out);
  EXPECT_EQ(c.variants, 6U);
  EXPECT_EQ(c.passed, 1U);
  EXPECT_EQ(c.failed, 1U);
  EXPECT_EQ(c.went_wrong, 3U);
  EXPECT_EQ(c.missing, 1U);
  EXPECT_EQ(c.exit_status, 1);
  EXPECT_NE(
      c.summary.find("000003 (default scenario) vehicle.sprung.mass=104: crashed (signal 11)"),
      std::string::npos)
      << c.summary;
  EXPECT_NE(
      c.summary.find("000004 (default scenario) vehicle.sprung.mass=105: timed out (after 1 s)"),
      std::string::npos)
      << c.summary;
  EXPECT_NE(c.summary.find("--index 2-5\n"), std::string::npos) << c.summary;
  // a local sweep wrote no sweep.sbatch: no Slurm line; a submitted one did (4 per task)
  EXPECT_EQ(c.summary.find("sbatch"), std::string::npos) << c.summary;
  std::ofstream(out / "sweep.sbatch") << "#!/bin/sh\n";
  EXPECT_NE(collect_sweep(out).summary.find("under Slurm: sbatch --array=0-1 "), std::string::npos);
  std::ifstream csv(out / "results.csv");
  std::stringstream table;
  table << csv.rdbuf();
  EXPECT_EQ(table.str().substr(0, table.str().find('\n')),
            "index,scenario,repetition,sample,seed,vehicle.sprung.mass,status,exit_status,"
            "simulated_s,gate: reaches speed,run_dir");
  EXPECT_NE(table.str().find(",101,passed,0,14,3.5,runs/000000\n"), std::string::npos)
      << table.str();
  EXPECT_NE(table.str().find(",101,missing,,,,\n"), std::string::npos) << table.str();
}

TEST(SweepCollect, IndexRangesAreCompact) {
  EXPECT_EQ(index_ranges({}), "");
  EXPECT_EQ(index_ranges({3}), "3");
  EXPECT_EQ(index_ranges({3, 7, 8, 9, 12}), "3,7-9,12");
}

// --- the real hilsim, as a user runs it ---------------------------------------------------

io::testing::CommandResult hilsim(const std::string& args) {
  return io::testing::run_command(std::string(HILSIM_BINARY) + " " + args);
}

TEST(SweepCommand, LocalRunThenTasksFromTheSchedulersEnvironment) {
  const TempDir dir;
  const fs::path plan = dir.write("two.pbtxt", R"(
rig: "ravon"
scenarios: "straight_accel_brake"
grid { field: "terrain.surface.type" texts: ["dry", "ice"] }
duration_s: 6
per_task: 1
)");
  const std::string out = (dir.path() / "local").string();
  const auto listed = hilsim("sweep plan " + plan.string());
  ASSERT_EQ(listed.status, 0) << listed.output;
  EXPECT_NE(listed.output.find("sweep two: 2 variants on rig ravon (2 array tasks of 1"),
            std::string::npos)
      << listed.output;
  const auto local = hilsim("sweep run " + plan.string() + " --local -j 2 -q --out " + out);
  EXPECT_EQ(local.status, 4) << local.output;  // ice does not reach its speed in time
  EXPECT_NE(local.output.find("2 of 2 variants ran (0 already done), 0 missing"), std::string::npos)
      << local.output;
  const auto collected = hilsim("sweep collect " + out);
  EXPECT_EQ(collected.status, 4) << collected.output;
  EXPECT_NE(collected.output.find("2 variants: 1 passed, 1 failed"), std::string::npos)
      << collected.output;

  // The index from the scheduler's environment: task 1 is variant 1
  for (const char* variable : {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}) {
    const std::string task_out = (dir.path() / variable).string();
    const auto r = io::testing::run_command(fmt::format(
        "{}=1 {} sweep run {} -q --out {}", variable, HILSIM_BINARY, plan.string(), task_out));
    EXPECT_EQ(r.status, 4) << r.output;
    EXPECT_TRUE(fs::exists(fs::path(task_out) / "runs/000001/manifest.json")) << variable;
    EXPECT_FALSE(fs::exists(fs::path(task_out) / "runs/000000")) << variable;
  }
  const auto none = hilsim("sweep run " + plan.string() + " -q");
  EXPECT_NE(none.status, 0);
  EXPECT_NE(none.output.find("give --index I"), std::string::npos) << none.output;
  const auto bad_index = hilsim("sweep run " + plan.string() + " --index 5 -q");
  EXPECT_NE(bad_index.output.find("the plan has variants 0..1"), std::string::npos)
      << bad_index.output;
}

}  // namespace
}  // namespace hil::sweep
