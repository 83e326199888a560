#pragma once
// A run directory's lidar.log: what timing decided for the rig's lidars in a real-time run
// (runtime/sensors/lidar_stage.hpp, LidarEvent) — a job late at a tick, a job lost because the
// worker was behind — written while the run goes and followed by its replay, so the run
// replays identically (as fmu.log for FMUs: runtime/fmu/fmu_log.hpp).
//
//   # hilsim lidar.log 1: tick lidar late <job> | behind
//   12000 roof late 2261
//   12004 roof behind
//
// Thread-safety: LidarLogWriter's service() and stop() from one non-RT thread at a time;
// error() from any thread. read_lidar_log is a function of its argument.

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/record/line_log.hpp"
#include "runtime/sensors/lidar_stage.hpp"

namespace hil::runtime {

class LidarLogWriter {
 public:
  /// Setup: creates `path` (std::system_error naming it when it cannot) for `lidars` (which
  /// must outlive it).
  LidarLogWriter(const std::vector<std::unique_ptr<LidarStage>>& lidars,
                 const std::filesystem::path& path);
  ~LidarLogWriter();
  LidarLogWriter(const LidarLogWriter&) = delete;
  LidarLogWriter& operator=(const LidarLogWriter&) = delete;
  /// Non-RT, every few ms: the lidars' events into lines.
  void service();
  /// After the loop: the last events, then the file is closed. Idempotent.
  void stop();
  /// The first write error ("" if none). Any thread.
  [[nodiscard]] std::string error() const { return log_.error(); }

 private:
  void drain();

  std::vector<LidarStage*> lidars_;
  io::record::LineLog log_;
  std::vector<LidarEvent> scratch_;
};

/// The events of lidar.log by lidar name, in tick order. Throws std::invalid_argument naming
/// the line at fault ("lidar.log:3: …").
[[nodiscard]] std::map<std::string, std::vector<LidarEvent>> read_lidar_log(
    const std::filesystem::path& path);

}  // namespace hil::runtime
