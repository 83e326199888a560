#pragma once
// The recorders of a run directory, fed by the record stage of every tick: telemetry.mcap
// (channel samples), can.log (every frame the buses received and sent) and, for a rig with a
// shared-memory bus, bus.log (every input snapshot it consumed); for a rig with FMUs on
// worker threads, fmu.log (their late steps: runtime/fmu/fmu_log.hpp). telemetry.mcap also
// carries the 3D scene (io/scene/scene_recorder_topics.hpp) at the recording's scene_rate_hz,
// for a rig with a vehicle.
// Constructed in the setup phase; run() on the RT thread (wait-free pushes into the
// recorders' rings; a lossless recording waits for room instead); service() on one non-RT
// thread while the loop runs; stop() after it; counters() from any thread.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/recording_spec.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/record/bus_log_recorder.hpp"
#include "io/record/can_log_recorder.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "io/scene/scene.hpp"
#include "io/scene/scene_recorder_topics.hpp"
#include "rt_core/stage.hpp"
#include "runtime/fmu/fmu_log.hpp"
#include "runtime/sensors/lidar_log.hpp"
#include "runtime/sensors/lidar_topics.hpp"

namespace hil::runtime {

class Rig;

struct RecordingCounters {
  io::record::RecorderCounters telemetry;
  io::record::CanLogCounters can_log;
  std::optional<io::record::BusLogCounters> bus_log;  ///< for a rig with a shared-memory bus
  std::string errors;                                 ///< "" or what went wrong writing
  /// How the recording ended: "complete", or "recording stopped: disk full at tick N (…)" /
  /// the write error, when it stopped before the run did.
  [[nodiscard]] std::string ended() const { return errors.empty() ? "complete" : errors; }
};

/// Where and how a run records.
struct RunRecordingSpec {
  std::filesystem::path dir;        ///< the run directory (exists)
  std::int64_t start_epoch_ns = 0;  ///< the wall time of tick 0
  std::string rig_name;             ///< in the telemetry's metadata
  /// The loop is not paced by real time (--speed max or a factor, replay): the record stage
  /// waits for the writers instead of letting a full ring drop samples or frames.
  bool lossless = false;
  config::RecordingSpec settings;  ///< the rig's recording block (rates, compression, split)
  /// The scenario the run drives, for the 3D scene's course (nullptr: none); setup only.
  const config::ScenarioSpec* scenario = nullptr;
};

class Recording final : public rt::Stage {
 public:
  /// Creates the files and taps `rig`'s buses, shared-memory bus and worker FMUs (which must
  /// outlive it). Throws std::system_error naming a file that cannot be created.
  Recording(Rig& rig, const RunRecordingSpec& options);
  ~Recording() override;
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  /// RT, the record slot: the tick's values into the telemetry's ring.
  void run(const rt::TickContext& c) noexcept override;
  /// Non-RT, every few ms (the run's I/O thread): the text logs' rings drained into their
  /// files (can.log, bus.log, fmu.log). The telemetry has a thread of its own (it compresses).
  void service();
  /// Drains and closes every file, then gives the space kept in reserve back (for the
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
  /// The 3D scene the telemetry carries (nullptr: none: no vehicle, or scene_rate_hz 0), for
  /// the console to share. Any thread (immutable).
  [[nodiscard]] std::shared_ptr<const io::scene::Scene> scene() const noexcept { return scene_; }

 private:
  const rt::ChannelTable& table_;
  std::filesystem::path dir_;
  bool lossless_;
  std::shared_ptr<const io::scene::Scene> scene_;
  std::unique_ptr<io::scene::SceneRecorderTopics> scene_topics_;  // before the telemetry: it
  std::unique_ptr<LidarRecorderTopics> lidar_topics_;  // the clouds, stacked on the scene's
  io::record::TelemetryRecorder telemetry_;            // writes them from its start
  std::unique_ptr<io::record::CanLogRecorder> can_log_;
  std::unique_ptr<io::record::BusLogRecorder> bus_log_;
  std::unique_ptr<WorkerLogWriter> fmu_log_;
  std::unique_ptr<WorkerLogWriter> lidar_log_;  ///< real-time runs with a lidar (lidar.log)
};

}  // namespace hil::runtime
