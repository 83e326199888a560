#pragma once
// `hilsim sweep submit PLAN --slurm`: the sweep as a Slurm job array — OUT/sweep.sbatch runs
// `hilsim sweep run PLAN --out OUT` in every array task (the task's variants from
// SLURM_ARRAY_TASK_ID and the plan's per_task), submitted with sbatch, then a collect job that
// starts when every task has ended (--dependency=afterany). Slurm does the scheduling,
// requeueing and accounting; hilsim only writes and submits. Thread-safety: none needed.

#include <filesystem>
#include <string>
#include <vector>

#include "config/sweep/sweep_plan.hpp"

namespace hil::sweep {

/// Slurm's default MaxArraySize (slurm.conf): array indices 0..1000.
inline constexpr std::size_t kSlurmMaxArrayTasks = 1001;

/// The job script's text (exposed for tests). Throws std::runtime_error when the plan needs
/// more array tasks than kSlurmMaxArrayTasks (with the per_task that would fit).
[[nodiscard]] std::string sbatch_script(const config::SweepPlan& plan,
                                        const std::filesystem::path& out,
                                        const std::filesystem::path& hilsim);

struct SlurmJobs {
  std::filesystem::path script;
  std::string array_job;  ///< the job id sbatch printed
  std::string collect_job;
  int collect_status = 0;  ///< with `wait`: the collect job's exit status (sweep collect's)
};

/// Writes OUT/sweep.sbatch and OUT/plan.json, submits the array and the collect job with
/// `sbatch_options` added to both (e.g. "--partition=sim"); with `wait`, returns when the
/// collect job ended. Throws std::runtime_error with sbatch's message when it refuses.
[[nodiscard]] SlurmJobs submit_slurm(const config::SweepPlan& plan,
                                     const std::filesystem::path& out,
                                     const std::filesystem::path& hilsim,
                                     const std::vector<std::string>& sbatch_options, bool wait);

}  // namespace hil::sweep
