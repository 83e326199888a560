#pragma once
// A run directory's fmu.log (runtime/worker_log.hpp): what timing decided for the rig's FMUs on
// worker threads (runtime/fmu/fmu_stage.hpp) — a step taken late, an FMU that fell behind.
//
//   # hilsim fmu.log 1: tick instance late <step taken> | behind
//   12000 battery late 2999
//   12004 battery behind
//
// Thread-safety: as runtime/worker_log.hpp.

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/fmu/fmu_stage.hpp"
#include "runtime/worker_log.hpp"

namespace hil::runtime {

inline constexpr WorkerLogFormat kFmuLog{
    .header = "# hilsim fmu.log 1: tick instance late <step taken> | behind",
    .source = "instance",
    .taken = "step",
    .min_taken = 0};

/// Setup: the log of the worker FMUs of `fmus` (which must outlive it) at `path`.
[[nodiscard]] std::unique_ptr<WorkerLogWriter> fmu_log_writer(
    const std::vector<std::unique_ptr<FmuStage>>& fmus, const std::filesystem::path& path);

/// The events of fmu.log by instance, in tick order. Throws std::invalid_argument naming the
/// line at fault ("fmu.log:3: …").
[[nodiscard]] inline std::map<std::string, std::vector<FmuEvent>> read_fmu_log(
    const std::filesystem::path& path) {
  return read_worker_log(path, kFmuLog);
}

}  // namespace hil::runtime
