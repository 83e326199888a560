#include "tools/session/run_recording.hpp"

#include <thread>

namespace hil::session {

Recording::Recording(config::RigRuntime& rig, const std::filesystem::path& dir,
                     std::int64_t period_ns, std::int64_t start_epoch_ns,
                     const std::string& rig_name, bool lossless)
    : table_(rig.table()),
      lossless_(lossless),
      telemetry_(rig.table(), dir / "telemetry.mcap",
                 {.tick_period_ns = period_ns,
                  .start_time_ns = static_cast<std::uint64_t>(start_epoch_ns),
                  .run_metadata = {{"rig", rig_name}}}) {
  io::record::CanLogConfig log{.tick_period_ns = period_ns, .start_epoch_ns = start_epoch_ns};
  for (const auto& bus : rig.buses()) log.interfaces.push_back(bus->name());
  can_log_ = std::make_unique<io::record::CanLogRecorder>(dir / "can.log", log);
  for (const auto& bus : rig.buses()) bus->set_tap(&can_log_->tap());
}

void Recording::write(const rt::TickContext& c) noexcept {
  // Not paced by real time: wait for the writer threads rather than drop (they drain even
  // after a write error, so the wait ends)
  while (lossless_ && !(telemetry_.has_room_for(c.tick) && can_log_->has_room())) {
    std::this_thread::yield();
  }
  (void)telemetry_.push(c.tick, table_.values());
}

void Recording::stop() {
  telemetry_.stop();
  can_log_->stop();
}

RecordingCounters Recording::counters() const {
  const std::string a = telemetry_.error();
  const std::string b = can_log_->error();
  return {.telemetry = telemetry_.counters(),
          .can_log = can_log_->counters(),
          .errors = a.empty() ? b : (b.empty() ? a : a + "; " + b)};
}

}  // namespace hil::session
