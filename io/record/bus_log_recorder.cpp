#include "io/record/bus_log_recorder.hpp"

#include "io/bus/bus_log.hpp"

namespace hil::io::record {

BusLogRecorder::BusLogRecorder(const std::filesystem::path& path, BusLogSpec config)
    : config_(std::move(config)),
      log_(path, std::string(io::bus::kBusLogHeader) + '\n', config_.flush_interval),
      tap_(config_.ring_snapshots) {
  line_.reserve(4096);
}

BusLogRecorder::~BusLogRecorder() { stop(); }

void BusLogRecorder::drain() {
  tap_.drain([&](const io::bus::ConsumedSnapshot& s) {
    if (s.region >= config_.regions.size()) {
      log_.drop(1);
      return;
    }
    line_.clear();
    io::bus::append_bus_log_line(line_, config_.regions[s.region], s);
    log_.append(line_);
  });
}

void BusLogRecorder::service() {
  drain();
  log_.flush_if_due();
}

void BusLogRecorder::stop() {
  drain();
  log_.close();
}

BusLogCounters BusLogRecorder::counters() const noexcept {
  const LineLogCounters c = log_.counters();
  return {.snapshots_written = c.lines_written,
          .snapshots_dropped = tap_.dropped() + c.lines_dropped};
}

}  // namespace hil::io::record
