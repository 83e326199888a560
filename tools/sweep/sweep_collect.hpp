#pragma once
// `hilsim sweep collect DIR`: every variant of OUT/plan.json with what its run directory says
// (OUT/runs/NNNNNN/sweep.json and manifest.json) in one CSV — index, scenario, repetition,
// sample, seed, the varied parameters, status, exit status, simulated time, every gate's
// figure, the run directory — and a summary: counts by status, the failing variants
// with their run directories and the replay command, the variants to run again (errors,
// crashes, time-outs, missing) as a `sweep run` and a Slurm `--array=` expression.
// The CSV holds nothing of the machine or the wall clock, so the same plan run by any engine
// gives the same file. Thread-safety: a function of the files.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace hil::sweep {

struct Collected {
  std::size_t variants = 0;
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t went_wrong = 0;  ///< error, crashed, timed out
  std::size_t missing = 0;
  std::string summary;        ///< several lines, for stdout
  std::filesystem::path csv;  ///< where the table was written
  int exit_status = 0;        ///< 0 all passed, 4 some failed, 1 some went wrong or missing
};

/// Reads OUT and writes `csv` (default OUT/results.csv). Throws std::runtime_error when OUT
/// has no plan.json.
[[nodiscard]] Collected collect_sweep(const std::filesystem::path& out,
                                      const std::filesystem::path& csv = {});

/// Indices as a compact list: "3,7-9,12".
[[nodiscard]] std::string index_ranges(const std::vector<std::size_t>& sorted);

}  // namespace hil::sweep
