#pragma once
// The parts of `hilsim replay` (tools/session/replay_session.hpp): what a run directory recorded
// (manifest, can.log by tick), the comparison of replayed frames and samples with it, and its
// report. Setup phase, one thread.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/can/transport/replay_transport.hpp"
#include "tools/session/replay_session.hpp"

namespace hil::session {

/// What manifest.json says the replay needs.
struct RunRecord {
  std::int64_t period_ns = 0;
  std::int64_t start_epoch_ns = 0;
  std::string rig;
  std::string scenario;
  bool completed = true;  ///< false when the run died (the manifest still says "running")
};

/// Throws std::runtime_error naming the file and the missing key.
[[nodiscard]] RunRecord read_run_record(const std::filesystem::path& dir);

/// can.log by interface: frames received (" R", or no suffix) and sent (" T"), with the tick
/// each belongs to.
struct CanRecording {
  std::map<std::string, std::vector<io::can::TickFrame>> received;
  std::map<std::string, std::vector<io::can::TickFrame>> sent;
  std::int64_t last_tick = -1;
  std::size_t frames = 0;
  std::vector<std::string> bad_lines;  ///< "can.log:LINE:COLUMN: what"
};

/// tick = round((time − start_epoch)/period) for a recording; for an external log
/// (`external`) the tick the time since its first frame falls into, every frame received.
[[nodiscard]] CanRecording read_can_recording(const std::filesystem::path& file,
                                              const RunRecord& run, bool external);

struct Divergence {
  std::int64_t tick = 0;
  std::string what;  ///< "frame ecu 0x200", "channel vehicle.body.yaw"
  std::string expected;
  std::string got;
};

struct Comparison {
  std::int64_t ticks = 0;
  double wall_s = 0.0;  ///< how long replaying and comparing took
  std::uint64_t frames_compared = 0, frames_differing = 0, frames_missing = 0, frames_extra = 0;
  std::uint64_t samples_compared = 0, values_compared = 0, values_differing = 0;
  bool truncated = false;  ///< the recording ended without its summary (a killed run)
  std::optional<Divergence> first;

  void note(Divergence d) {
    if (!first || d.tick < first->tick) first = std::move(d);
  }
  [[nodiscard]] bool identical() const noexcept {
    return frames_differing == 0 && frames_missing == 0 && frames_extra == 0 &&
           values_differing == 0;
  }
};

/// Checks every frame the replayed buses send against the recorded ones, per bus in tick
/// order; makes the replay transports.
class FrameChecker {
 public:
  FrameChecker(const CanRecording& log, Comparison& result) : log_(log), result_(result) {}
  /// The replay transport of bus `name`: its recorded receptions, its sends checked.
  [[nodiscard]] std::unique_ptr<io::can::Transport> transport(std::size_t bus,
                                                              const std::string& name);
  /// Recorded sends up to `last_tick` that were never produced count as missing.
  void finish(std::int64_t last_tick);

 private:
  void check(const std::string& bus, std::int64_t tick, const io::can::CanFrame& frame);

  const CanRecording& log_;
  Comparison& result_;
  std::map<std::string, std::size_t> next_;  // per bus: the next recorded send
};

/// "identical: N frames, M samples …" or "DIVERGED at tick …", several lines.
[[nodiscard]] std::string describe(const Comparison& c, std::int64_t period_ns);
[[nodiscard]] nlohmann::json to_json(const Comparison& c, std::int64_t period_ns);

/// The tick of the last sample in a telemetry file (−1 if none).
[[nodiscard]] std::int64_t last_sample_tick(const std::filesystem::path& telemetry);

/// `hilsim replay LOG --rig NAME`: see replay_session.hpp.
[[nodiscard]] int replay_external_log(const ReplayOptions& options);

}  // namespace hil::session
