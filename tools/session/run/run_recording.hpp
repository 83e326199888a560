#pragma once
// The recorders of a run directory, fed by the write phase of every tick (the record slot):
// telemetry.mcap (channel samples), can.log (every frame the buses received and sent) and,
// for a rig with a shared-memory bus, bus.log (every input snapshot its task consumed); for a
// rig with FMUs on worker threads, fmu.log (their late steps: tools/session/fmu_log.hpp).
// Constructed in the setup phase; write() runs on the RT thread (wait-free pushes into the
// recorders' rings; a lossless recording waits for room instead); stop() and counters() from
// the non-RT thread after the loop.

#include <filesystem>
#include <memory>
#include <string>

#include "config/rig_runtime.hpp"
#include "io/record/bus_log_recorder.hpp"
#include "io/record/can_log_recorder.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "rt_core/task.hpp"
#include "tools/session/fmu_log.hpp"
#include "tools/session/run/run_report.hpp"

namespace hil::session {

class Recording final : public rt::Task {
 public:
  /// `lossless`: the loop is not paced by real time (--speed max or a factor, replay): write()
  /// waits for the writers instead of letting a full ring drop samples or frames.
  /// `settings`: the rig's recording block (rates, compression, split, watermark).
  Recording(config::RigRuntime& rig, const std::filesystem::path& dir, std::int64_t period_ns,
            std::int64_t start_epoch_ns, const std::string& rig_name, bool lossless,
            const config::RecordingSettings& settings);
  ~Recording() override;
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  void update(const rt::TickContext& /*c*/) noexcept override {}
  void write(const rt::TickContext& c) noexcept override;
  /// Drains and closes both files, then gives the space kept in reserve back (for the
  /// manifest and timing.json, written next). Idempotent.
  void stop();
  /// Free bytes on the run directory's file system now.
  [[nodiscard]] std::uint64_t free_bytes() const;
  /// Telemetry bytes per simulated hour, estimated (TelemetryRecorder): for the line `hilsim
  /// run` prints at the start.
  [[nodiscard]] double estimated_bytes_per_hour() const noexcept {
    return telemetry_.estimated_bytes_per_hour();
  }
  [[nodiscard]] RecordingCounters counters() const;
  /// Setup: the telemetry recorder, for its event topic (RT pushes: push_event).
  [[nodiscard]] io::record::TelemetryRecorder& telemetry() noexcept { return telemetry_; }

 private:
  const rt::ChannelTable& table_;
  std::filesystem::path dir_;
  bool lossless_;
  io::record::TelemetryRecorder telemetry_;
  std::unique_ptr<io::record::CanLogRecorder> can_log_;
  std::unique_ptr<io::record::BusLogRecorder> bus_log_;
  std::unique_ptr<FmuLogWriter> fmu_log_;
};

}  // namespace hil::session
