#pragma once
// A run directory's fmu.log: what timing decided for the rig's FMUs on worker threads
// (runtime/fmu/fmu_stage.hpp, FmuEvent) — a step taken late, an FMU that fell behind — with the
// tick, written while the run goes and followed by its replay, so the run replays identically.
//
//   # hilsim fmu.log 1: tick instance late <step taken> | behind
//   12000 battery late 2999
//   12004 battery behind
//
// Thread-safety: FmuLogWriter is set up, stopped and destroyed on one non-RT thread; its own
// thread drains the FMUs' rings. read_fmu_log is a function of its argument.

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "runtime/fmu/fmu_stage.hpp"

namespace hil::runtime {

class FmuLogWriter {
 public:
  /// Setup: creates `path` and starts draining the worker FMUs of `fmus` (which must outlive
  /// it) every 20 ms (flushed each time: a killed run keeps what was drained). Throws
  /// std::runtime_error naming the file.
  FmuLogWriter(const std::vector<std::unique_ptr<FmuStage>>& fmus,
               const std::filesystem::path& path);
  ~FmuLogWriter();
  FmuLogWriter(const FmuLogWriter&) = delete;
  FmuLogWriter& operator=(const FmuLogWriter&) = delete;
  /// After the loop: the last events, then the file is closed. Idempotent.
  void stop();

 private:
  void drain();

  std::vector<runtime::FmuStage*> fmus_;
  std::vector<std::string> names_;
  std::ofstream out_;
  std::vector<runtime::FmuEvent> scratch_;
  std::jthread thread_;
};

/// The events of fmu.log by instance, in tick order. Throws std::invalid_argument naming the
/// line at fault ("fmu.log:3: …").
[[nodiscard]] std::map<std::string, std::vector<runtime::FmuEvent>> read_fmu_log(
    const std::filesystem::path& path);

}  // namespace hil::runtime
