#pragma once
// A run directory's lidar.log (runtime/worker_log.hpp): what timing decided for the rig's lidars
// in a real-time run (runtime/sensors/lidar_stage.hpp) — a job late at a tick, a job lost
// because the worker was behind.
//
//   # hilsim lidar.log 1: tick lidar late <job> | behind
//   12000 roof late 2261
//   12004 roof behind
//
// Thread-safety: as runtime/worker_log.hpp.

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/sensors/lidar_stage.hpp"
#include "runtime/worker_log.hpp"

namespace hil::runtime {

inline constexpr WorkerLogFormat kLidarLog{
    .header = "# hilsim lidar.log 1: tick lidar late <job> | behind",
    .source = "lidar",
    .taken = "job",
    .min_taken = 1};

/// Setup: the log of `lidars` (which must outlive it) at `path`.
[[nodiscard]] std::unique_ptr<WorkerLogWriter> lidar_log_writer(
    const std::vector<std::unique_ptr<LidarStage>>& lidars, const std::filesystem::path& path);

/// The events of lidar.log by lidar name, in tick order. Throws std::invalid_argument naming
/// the line at fault ("lidar.log:3: …").
[[nodiscard]] inline std::map<std::string, std::vector<LidarEvent>> read_lidar_log(
    const std::filesystem::path& path) {
  return read_worker_log(path, kLidarLog);
}

}  // namespace hil::runtime
