#include "tools/sweep/slurm_submit.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "tools/sweep/sweep_runner.hpp"

namespace hil::sweep {
namespace {

namespace fs = std::filesystem;

constexpr double kTaskSlackS = 120.0;  // start-up and collect margin of a task's time limit

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Captured {
  int status = -1;
  std::string output;
};

Captured run_captured(const std::vector<std::string>& args) {
  std::string command;
  for (const std::string& a : args) command += (command.empty() ? "" : " ") + quoted(a);
  command += " 2>&1";
  Captured c;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start " + args.front());
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    c.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return c;
}

std::string job_id(const Captured& c) {
  // --parsable prints "ID" or "ID;CLUSTER"
  std::string id = c.output.substr(0, c.output.find_first_of(";\n"));
  if (c.status != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error(fmt::format("sbatch refused the job: {}", c.output));
  }
  return id;
}

}  // namespace

std::string sbatch_script(const config::SweepPlan& plan, const fs::path& out,
                          const fs::path& hilsim) {
  const std::size_t tasks = plan.tasks();
  if (tasks > kSlurmMaxArrayTasks) {
    const std::size_t fits = (plan.size() + kSlurmMaxArrayTasks - 1) / kSlurmMaxArrayTasks;
    throw std::runtime_error(
        fmt::format("{} variants in tasks of {} make {} array tasks; Slurm's default "
                    "MaxArraySize allows {}: set per_task: {} (or more) in the plan",
                    plan.size(), plan.per_task(), tasks, kSlurmMaxArrayTasks, fits));
  }
  const double limit_s = static_cast<double>(plan.per_task()) * plan.timeout_s() + kTaskSlackS;
  return fmt::format(
      "#!/bin/sh\n"
      "# hilsim sweep {name}: {n} variants in {t} array tasks of {k} (hilsim sweep submit)\n"
      "#SBATCH --job-name=hilsim-{name}\n"
      "#SBATCH --array=0-{last}\n"
      "#SBATCH --output={out}/slurm/task-%a.out\n"
      "#SBATCH --time={minutes}\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=1\n"
      "# the task's variants come from SLURM_ARRAY_TASK_ID\n"
      "exec {hilsim} sweep run {plan} --out {qout} --quiet\n",
      fmt::arg("name", plan.name()), fmt::arg("n", plan.size()), fmt::arg("t", tasks),
      fmt::arg("k", plan.per_task()), fmt::arg("last", tasks - 1), fmt::arg("out", out.string()),
      fmt::arg("minutes", static_cast<long>(std::ceil(limit_s / 60.0))),
      fmt::arg("hilsim", quoted(hilsim.string())),
      fmt::arg("plan", quoted(fs::absolute(plan.file()).string())),
      fmt::arg("qout", quoted(out.string())));
}

SlurmJobs submit_slurm(const config::SweepPlan& plan, const fs::path& out, const fs::path& hilsim,
                       const std::vector<std::string>& sbatch_options, bool wait) {
  SlurmJobs jobs;
  fs::create_directories(out / "slurm");
  write_plan_json(plan, out);
  jobs.script = out / "sweep.sbatch";
  {
    std::ofstream file(jobs.script, std::ios::trunc);
    file << sbatch_script(plan, out, hilsim);
    if (!file) throw std::runtime_error(fmt::format("cannot write '{}'", jobs.script.string()));
  }
  std::vector<std::string> array{"sbatch", "--parsable"};
  array.insert(array.end(), sbatch_options.begin(), sbatch_options.end());
  array.push_back(jobs.script.string());
  jobs.array_job = job_id(run_captured(array));
  std::vector<std::string> collect{"sbatch",
                                   "--parsable",
                                   "--job-name=hilsim-" + plan.name() + "-collect",
                                   "--dependency=afterany:" + jobs.array_job,
                                   "--output=" + (out / "slurm" / "collect.out").string(),
                                   "--ntasks=1"};
  collect.insert(collect.end(), sbatch_options.begin(), sbatch_options.end());
  if (wait) collect.emplace_back("--wait");
  collect.push_back("--wrap=" + quoted(hilsim.string()) + " sweep collect " + quoted(out.string()));
  const Captured submitted = run_captured(collect);
  jobs.collect_job = job_id({.status = wait ? 0 : submitted.status, .output = submitted.output});
  jobs.collect_status = submitted.status;
  return jobs;
}

}  // namespace hil::sweep
