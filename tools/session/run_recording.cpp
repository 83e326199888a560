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
  if (io::bus::BusTask* task = rig.bus_task()) {
    io::record::BusLogConfig config;
    for (const io::bus::RegionSchema& r : task->schema().regions) config.regions.push_back(r.name);
    bus_log_ = std::make_unique<io::record::BusLogRecorder>(dir / "bus.log", std::move(config));
    task->set_tap(&bus_log_->tap());
  }
}

void Recording::write(const rt::TickContext& c) noexcept {
  // Not paced by real time: wait for the writer threads rather than drop (they drain even
  // after a write error, so the wait ends)
  while (lossless_ && !(telemetry_.has_room_for(c.tick) && can_log_->has_room() &&
                        (!bus_log_ || bus_log_->has_room()))) {
    std::this_thread::yield();
  }
  (void)telemetry_.push(c.tick, table_.values());
}

void Recording::stop() {
  telemetry_.stop();
  can_log_->stop();
  if (bus_log_) bus_log_->stop();
}

RecordingCounters Recording::counters() const {
  std::string errors;
  for (const std::string& e :
       {telemetry_.error(), can_log_->error(), bus_log_ ? bus_log_->error() : std::string()}) {
    if (!e.empty()) errors += (errors.empty() ? "" : "; ") + e;
  }
  return {.telemetry = telemetry_.counters(),
          .can_log = can_log_->counters(),
          .bus_log = bus_log_ ? std::optional(bus_log_->counters()) : std::nullopt,
          .errors = errors};
}

}  // namespace hil::session
