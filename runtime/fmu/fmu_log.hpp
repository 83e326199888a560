#pragma once
// A run directory's fmu.log: what timing decided for the rig's FMUs on worker threads
// (runtime/fmu/fmu_stage.hpp, FmuEvent) — a step taken late, an FMU that fell behind — with the
// tick, written while the run goes and followed by its replay, so the run replays identically.
//
//   # hilsim fmu.log 1: tick instance late <step taken> | behind
//   12000 battery late 2999
//   12004 battery behind
//
// Thread-safety: FmuLogWriter's service() and stop() from one non-RT thread at a time (the
// run's I/O thread, then the caller after the run); error() from any thread. read_fmu_log is a
// function of its argument.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "io/record/line_log.hpp"
#include "runtime/fmu/fmu_stage.hpp"

namespace hil::runtime {

class FmuLogWriter {
 public:
  /// Setup: creates `path` (std::system_error naming it when it cannot) for the worker FMUs
  /// of `fmus` (which must outlive it).
  FmuLogWriter(const std::vector<std::unique_ptr<FmuStage>>& fmus,
               const std::filesystem::path& path);
  ~FmuLogWriter();
  FmuLogWriter(const FmuLogWriter&) = delete;
  FmuLogWriter& operator=(const FmuLogWriter&) = delete;
  /// Non-RT, every few ms: the FMUs' events into lines (io/record/line_log.hpp: synced at least
  /// every second: a killed run keeps what was synced).
  void service();
  /// After the loop: the last events, then the file is closed. Idempotent.
  void stop();
  /// The first write error ("" if none). Any thread.
  [[nodiscard]] std::string error() const { return log_.error(); }

 private:
  void drain();

  std::vector<FmuStage*> fmus_;
  std::vector<std::string> names_;
  io::record::LineLog log_;
  std::vector<FmuEvent> scratch_;
};

/// The events of fmu.log by instance, in tick order. Throws std::invalid_argument naming the
/// line at fault ("fmu.log:3: …").
[[nodiscard]] std::map<std::string, std::vector<runtime::FmuEvent>> read_fmu_log(
    const std::filesystem::path& path);

}  // namespace hil::runtime
