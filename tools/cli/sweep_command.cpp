#include "tools/cli/sweep_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "config/sweep/sweep_plan.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/sweep/slurm_submit.hpp"
#include "tools/sweep/sweep_collect.hpp"
#include "tools/sweep/sweep_runner.hpp"

namespace hil::cli {
namespace {

namespace fs = std::filesystem;

struct SweepSpec {
  std::string plan;
  std::string out;
  std::string index;
  long task = -1;
  bool local = false;
  unsigned jobs = 0;
  bool quiet = false;
  bool json = false;
  bool slurm = false;
  bool wait = false;
  std::vector<std::string> sbatch;
  std::string dir;
  std::string csv;
};

config::SweepPlan load(const std::string& file) {
  config::SweepLoad loaded = config::load_sweep(file);
  if (!loaded.ok()) {
    session::print_config_errors(loaded.errors, file);
    throw CLI::RuntimeError(2);
  }
  return std::move(*loaded.plan);
}

fs::path out_dir(const SweepSpec& o, const config::SweepPlan& plan) {
  return fs::absolute(o.out.empty() ? fs::path("sweeps") / plan.name() : fs::path(o.out))
      .lexically_normal();
}

fs::path self() { return fs::read_symlink("/proc/self/exe"); }

/// "3", "3,7-9": the listed indices, each checked against the plan.
std::vector<std::size_t> parse_indices(const std::string& text, std::size_t size) {
  std::vector<std::size_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = text.find(',', at);
    const std::string part =
        text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const std::size_t dash = part.find('-');
    try {
      std::size_t used = 0;
      const std::size_t first = std::stoul(part, &used);
      std::size_t last = first;
      if (dash != std::string::npos) {
        std::size_t used_last = 0;
        last = std::stoul(part.substr(dash + 1), &used_last);
        if (used != dash || used_last != part.size() - dash - 1) throw std::invalid_argument("");
      } else if (used != part.size()) {
        throw std::invalid_argument("");
      }
      if (first > last || last >= size) {
        throw CLI::ValidationError(
            "--index", fmt::format("'{}': the plan has variants 0..{}", part, size - 1));
      }
      for (std::size_t i = first; i <= last; ++i) out.push_back(i);
    } catch (const std::logic_error&) {
      throw CLI::ValidationError("--index",
                                 fmt::format("'{}': expected I, I-J or a list: 3,7-9", part));
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

/// The task from the environment Slurm or Kubernetes sets, or -1.
long task_from_environment() {
  for (const char* name : {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}) {
    if (const char* value = std::getenv(name)) {  // NOLINT(concurrency-mt-unsafe): one thread
      char* end = nullptr;
      const long task = std::strtol(value, &end, 10);
      if (end != value && *end == '\0' && task >= 0) return task;
      throw CLI::ValidationError(name, fmt::format("'{}' is no task index", value));
    }
  }
  return -1;
}

void run_plan(const SweepSpec& o) {
  const config::SweepPlan plan = load(o.plan);
  if (o.json) {
    nlohmann::json variants = nlohmann::json::array();
    for (std::size_t i = 0; i < plan.size(); ++i) {
      const config::Variant v = plan.variant(i);
      nlohmann::json p = nlohmann::json::object();
      for (const config::Parameter& x : v.parameters) p[x.field] = x.value;
      variants.push_back({{"index", i},
                          {"scenario", v.scenario},
                          {"repetition", v.repetition},
                          {"sample", v.sample},
                          {"seed", v.seed},
                          {"parameters", p}});
    }
    std::cout << variants.dump(1) << "\n";
    return;
  }
  fmt::print("sweep {}: {} variants on rig {} ({} array tasks of {}; timeout {} s each)\n",
             plan.name(), plan.size(), plan.rig(), plan.tasks(), plan.per_task(), plan.timeout_s());
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const config::Variant v = plan.variant(i);
    std::string params;
    for (const config::Parameter& p : v.parameters)
      params += fmt::format("  {}={}", p.field, p.value);
    fmt::print("{:6}  {}{}{}\n", i, v.scenario.empty() ? "(default scenario)" : v.scenario,
               plan.repetitions() > 1 ? fmt::format(" rep {}", v.repetition) : "", params);
  }
}

void run_run(const SweepSpec& o) {
  const config::SweepPlan plan = load(o.plan);
  std::vector<std::size_t> indices;
  long task = o.task;
  if (!o.index.empty()) {
    indices = parse_indices(o.index, plan.size());
  } else if (o.local) {
    for (std::size_t i = 0; i < plan.size(); ++i) indices.push_back(i);
  } else {
    if (task < 0) task = task_from_environment();
    if (task < 0) {
      throw CLI::ValidationError(
          "which variants",
          "give --index I (or I-J, or a list), --task T, or --local for all of them; under "
          "Slurm or a Kubernetes Indexed Job the task comes from SLURM_ARRAY_TASK_ID or "
          "JOB_COMPLETION_INDEX");
    }
    const auto first = static_cast<std::size_t>(task) * plan.per_task();
    if (first >= plan.size()) {
      throw CLI::ValidationError(
          "task", fmt::format("task {} is past the plan's {} tasks", task, plan.tasks()));
    }
    for (std::size_t i = first; i < std::min(plan.size(), first + plan.per_task()); ++i) {
      indices.push_back(i);
    }
  }
  const fs::path out = out_dir(o, plan);
  sweep::write_plan_json(plan, out);
  const unsigned jobs =
      o.jobs != 0 ? o.jobs : (o.local ? std::max(1U, std::thread::hardware_concurrency()) : 1U);
  const std::vector<sweep::VariantOutcome> outcomes =
      sweep::run_variants(plan, indices, {.out = out, .jobs = jobs, .progress = !o.quiet});
  std::size_t skipped = 0;
  std::vector<std::string> lines;
  for (const sweep::VariantOutcome& r : outcomes) {
    skipped += r.skipped ? 1 : 0;
    if (r.status != sweep::Status::passed) {
      lines.push_back(fmt::format("  {:06} {}{} ({})", r.index, sweep::to_string(r.status),
                                  r.signal != 0 ? fmt::format(", signal {}", r.signal)
                                                : fmt::format(", exit status {}", r.exit_status),
                                  sweep::run_directory(out, r.index).string()));
    }
  }
  fmt::print("sweep {}: {} of {} variants ran ({} already done), {} missing; in {}\n", plan.name(),
             outcomes.size(), indices.size(), skipped, indices.size() - outcomes.size(),
             out.string());
  for (const std::string& l : lines) fmt::print("{}\n", l);
  int code = sweep::sweep_exit_status(outcomes);
  if (outcomes.size() != indices.size()) code = 1;
  if (code != 0) throw CLI::RuntimeError(code);
}

void run_submit(const SweepSpec& o) {
  if (!o.slurm) {
    throw CLI::ValidationError("engine",
                               "--slurm is the engine submit knows (docs/sweeps.md "
                               "has a Kubernetes Indexed Job manifest)");
  }
  const config::SweepPlan plan = load(o.plan);
  const fs::path out = out_dir(o, plan);
  const sweep::SlurmJobs jobs = sweep::submit_slurm(plan, out, self(), o.sbatch, o.wait);
  fmt::print(
      "submitted sweep {}: {} variants as array job {} ({} tasks of {}), collect job {}\n"
      "  script {}, task logs {}/slurm/\n",
      plan.name(), plan.size(), jobs.array_job, plan.tasks(), plan.per_task(), jobs.collect_job,
      jobs.script.string(), out.string());
  if (!o.wait) {
    fmt::print("  when it ends: hilsim sweep collect {}\n", out.string());
    return;
  }
  std::ifstream collected(out / "slurm" / "collect.out");
  std::cout << collected.rdbuf();
  if (jobs.collect_status != 0) throw CLI::RuntimeError(jobs.collect_status);
}

void run_collect(const SweepSpec& o) {
  const sweep::Collected c = sweep::collect_sweep(o.dir, o.csv);
  fmt::print("{}", c.summary);
  if (c.exit_status != 0) throw CLI::RuntimeError(c.exit_status);
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepSpec>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a scenario × parameter sweep at --speed max, here or on Slurm");
  cmd->require_subcommand(1);
  cmd->footer(
      "A plan (Protobuf text, config/sweep/sweep.proto) names a rig, scenarios, grid dimensions\n"
      "(a rig field and its values), Monte Carlo dimensions (a distribution per field, samples,\n"
      "a master seed) and repetitions. Variant i depends only on the plan and i.\n"
      "\nExamples:\n"
      "  hilsim sweep plan hil_rigs/sweeps/lane_change_surfaces.pbtxt\n"
      "  hilsim sweep run hil_rigs/sweeps/lane_change_surfaces.pbtxt --local -j 2\n"
      "  hilsim sweep run PLAN --index 7                  # one variant (or 3,7-9)\n"
      "  hilsim sweep submit PLAN --slurm --sbatch=--partition=sim\n"
      "  hilsim sweep collect sweeps/lane_change_surfaces\n"
      "\nEach variant runs as `hilsim run --speed max` into OUT/runs/NNNNNN/ (default OUT:\n"
      "sweeps/<plan name>/); a variant already passed or failed there is not run again.\n"
      "Exit status: 0 all passed; 4 some failed their gates; 1 a variant went wrong (setup\n"
      "error, crash, time-out) or is missing; 2 a bad plan. Guide: docs/sweeps.md.\n");

  CLI::App* plan = cmd->add_subcommand("plan", "Check a plan and list its variants");
  plan->add_option("PLAN", o->plan, "The sweep plan (.pbtxt)")->required();
  plan->add_flag("--json", o->json, "The variants as JSON");
  plan->callback([o] { run_plan(*o); });

  CLI::App* run = cmd->add_subcommand("run", "Run variants of a plan (one, a range, a task, all)");
  run->add_option("PLAN", o->plan, "The sweep plan (.pbtxt)")->required();
  run->add_option("--out", o->out, "The sweep's directory (default sweeps/<plan name>)")
      ->type_name("DIR");
  CLI::Option* index =
      run->add_option("--index", o->index, "Variants: I, I-J or a list 3,7-9")->type_name("LIST");
  CLI::Option* task = run->add_option("--task", o->task,
                                      "The array task's variants (default: SLURM_ARRAY_TASK_ID "
                                      "or JOB_COMPLETION_INDEX)")
                          ->check(CLI::NonNegativeNumber);
  CLI::Option* local = run->add_flag("--local", o->local, "Every variant, on this machine");
  index->excludes(task);
  local->excludes(task);
  run->add_option("-j,--jobs", o->jobs, "Variants at once (default: the CPUs with --local, else 1)")
      ->check(CLI::Range(1U, 1024U));
  run->add_flag("-q,--quiet", o->quiet, "No progress line");
  run->callback([o] { run_run(*o); });

  CLI::App* submit = cmd->add_subcommand("submit", "Submit the sweep as a Slurm job array");
  submit->add_option("PLAN", o->plan, "The sweep plan (.pbtxt)")->required();
  submit->add_flag("--slurm", o->slurm, "Submit with sbatch (a job array, then a collect job)");
  submit->add_option("--out", o->out, "The sweep's directory, on storage every node sees")
      ->type_name("DIR");
  submit->add_option("--sbatch", o->sbatch, "An sbatch option for both jobs; repeatable")
      ->type_name("OPTION")
      ->allow_extra_args(false);
  submit->add_flag("--wait", o->wait, "Wait for the collect job and print its summary");
  submit->callback([o] { run_submit(*o); });

  CLI::App* collect =
      cmd->add_subcommand("collect", "Gather verdicts and gate figures into one CSV");
  collect->add_option("DIR", o->dir, "The sweep's directory")->required();
  collect->add_option("--csv", o->csv, "Where the table goes (default DIR/results.csv)")
      ->type_name("FILE");
  collect->callback([o] { run_collect(*o); });
}

}  // namespace hil::cli
