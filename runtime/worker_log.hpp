#pragma once
// A run directory's log of what timing decided for the rig's workers — FMUs on worker threads
// (fmu.log, runtime/fmu/fmu_log.hpp), lidars (lidar.log, runtime/sensors/lidar_log.hpp): at a
// tick, a result taken late (an FMU's step, a lidar's packet job) or a worker too far behind.
// Written while the run goes and followed by its replay, so the run replays identically.
//
//   # hilsim fmu.log 1: tick instance late <step taken> | behind
//   12000 battery late 2999
//   12004 battery behind
//
// Thread-safety: WorkerLogWriter's service() and stop() from one non-RT thread at a time (the
// run's I/O thread, then the caller after the run); error() from any thread. read_worker_log is
// a function of its arguments.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "io/record/line_log.hpp"
#include "runtime/worker_event.hpp"

namespace hil::runtime {

/// What one kind of log calls its columns.
struct WorkerLogFormat {
  std::string_view header;  ///< its first line, without the newline
  std::string_view source;  ///< the second column: "instance", "lidar"
  std::string_view taken;   ///< the number after "late": "step", "job"
  std::int64_t min_taken;   ///< the smallest number a late line may hold
};

class WorkerLogWriter {
 public:
  /// A worker: its name in the log and how to take its events (non-RT thread).
  struct Source {
    std::string name;
    std::function<std::size_t(std::vector<WorkerEvent>&)> take;
  };

  /// Setup: creates `path` (std::system_error naming it when it cannot).
  WorkerLogWriter(const WorkerLogFormat& format, std::vector<Source> sources,
                  const std::filesystem::path& path);
  ~WorkerLogWriter();
  WorkerLogWriter(const WorkerLogWriter&) = delete;
  WorkerLogWriter& operator=(const WorkerLogWriter&) = delete;
  /// Non-RT, every few ms: the workers' events into lines (io/record/line_log.hpp: synced at
  /// least every second: a killed run keeps what was synced).
  void service();
  /// After the loop: the last events, then the file is closed. Idempotent.
  void stop();
  /// The first write error ("" if none). Any thread.
  [[nodiscard]] std::string error() const { return log_.error(); }

 private:
  void drain();

  std::vector<Source> sources_;
  io::record::LineLog log_;
  std::vector<WorkerEvent> scratch_;
};

/// The events of a log by source name, in tick order. Throws std::invalid_argument naming the
/// line at fault ("fmu.log:3: …").
[[nodiscard]] std::map<std::string, std::vector<WorkerEvent>> read_worker_log(
    const std::filesystem::path& path, const WorkerLogFormat& format);

}  // namespace hil::runtime
