#pragma once
// Runs sweep variants (config/sweep/sweep_plan.hpp): each one the recipe of `hilsim run
// --speed max --no-rt --console off --overlay OUT/variants/NNNNNN.pbtxt`, run in a child
// process of its own forked from this process, the sweep's worker, once it warmed up
// (sweep_worker.hpp: a fork server) — a variant that crashes, hangs or fails to set up is
// reported and the others go on — into OUT/runs/NNNNNN/, with
// sweep.json (what ran and how it ended) and run.log (its output) next to the run's files.
// A run is recorded under a temporary name and renamed when it ends, so a directory
// OUT/runs/NNNNNN never holds half a run; a variant whose directory says passed or failed for
// the same variant is not run again (idempotent: an array task requeued by Slurm, a rerun).
// Setup-phase code: forks, allocates. Thread-safety: one runner per process.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "config/sweep/sweep_plan.hpp"
#include "tools/session/run/run_session.hpp"
#include "tools/sweep/sweep_worker.hpp"

namespace hil::sweep {

enum class Status : std::uint8_t {
  passed,     ///< the run completed and its scenario passed (or it has none): exit 0
  failed,     ///< the scenario's gates failed: exit 4
  error,      ///< any other exit status (setup error, overrun policy, recording incomplete)
  crashed,    ///< killed by a signal it did not ask for
  timed_out,  ///< still running after the plan's timeout_s: stopped
  missing,    ///< (collect) never ran, or its directory is gone
};

[[nodiscard]] std::string_view to_string(Status s) noexcept;
/// The inverse of to_string (missing for anything else).
[[nodiscard]] Status status_from(std::string_view text) noexcept;

struct VariantOutcome {
  std::size_t index = 0;
  Status status = Status::missing;
  int exit_status = -1;  ///< the child's, when it exited
  int signal = 0;        ///< the signal that ended it, when one did
  double wall_s = 0.0;
  bool skipped = false;  ///< already done by an earlier run
};

struct RunnerSpec {
  std::filesystem::path out;  ///< the sweep's directory
  unsigned jobs = 1;          ///< variants at once
  bool progress = true;       ///< a progress line on stderr every second
  /// What a child runs for its variant: `hilsim run` (tests: a stand-in); its exit status.
  VariantRun run_variant = session::run_rig;
  /// What the worker runs once, for a few ticks, before it forks the first variant
  /// (sweep_worker.hpp warm_up); empty: no warm-up.
  VariantRun warm_up = session::run_rig;
};

/// OUT/runs/NNNNNN.
[[nodiscard]] std::filesystem::path run_directory(const std::filesystem::path& out,
                                                  std::size_t index);

/// Writes OUT/plan.json (the plan file, rig, fields and every variant's parameters) for
/// collect; atomic, and the same bytes for the same plan.
void write_plan_json(const config::SweepPlan& plan, const std::filesystem::path& out);

/// Runs `indices` (each < plan.size()), `jobs` at a time, in index order of start. SIGINT or
/// SIGTERM stops the children and returns what ended (the rest missing).
[[nodiscard]] std::vector<VariantOutcome> run_variants(const config::SweepPlan& plan,
                                                       std::span<const std::size_t> indices,
                                                       const RunnerSpec& options);

/// 0 when every variant passed, 4 when some failed their gates and none went wrong, else 1.
[[nodiscard]] int sweep_exit_status(std::span<const VariantOutcome> outcomes) noexcept;

}  // namespace hil::sweep
