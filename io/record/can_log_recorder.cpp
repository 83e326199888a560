#include "io/record/can_log_recorder.hpp"

#include <array>
#include <stdexcept>

#include "io/can/trace/candump_log.hpp"

namespace hil::io::record {

CanLogRecorder::CanLogRecorder(const std::filesystem::path& path, CanLogSpec config)
    : CanLogRecorder(std::make_unique<FileSink>(path), std::move(config)) {}

CanLogRecorder::CanLogRecorder(std::unique_ptr<ByteSink> sink, CanLogSpec config)
    : config_(std::move(config)),
      log_(std::move(sink), {}, config_.flush_interval),
      tap_(config_.ring_frames) {
  if (config_.tick_period_ns <= 0) throw std::invalid_argument("can.log: tick period must be > 0");
}

CanLogRecorder::~CanLogRecorder() { stop(); }

void CanLogRecorder::drain() {
  std::array<char, io::can::kMaxCandumpLineLength + 1> line{};
  tap_.drain([&](const io::can::RecordedFrame& f) {
    const std::int64_t ns = config_.start_epoch_ns + f.tick * config_.tick_period_ns;
    io::can::CandumpLine l{
        .time = {.seconds = ns / 1'000'000'000,
                 .nanoseconds = static_cast<std::uint32_t>(ns % 1'000'000'000)},
        .interface = f.bus < config_.interfaces.size() ? std::string_view(config_.interfaces[f.bus])
                                                       : std::string_view("can"),
        .frame = f.frame,
        .direction = !config_.mark_direction ? io::can::CandumpDirection::unspecified
                     : f.transmitted         ? io::can::CandumpDirection::transmitted
                                             : io::can::CandumpDirection::received};
    const std::size_t n = io::can::format_candump_line(l, {line.data(), line.size() - 1});
    if (n == 0) {  // an invalid frame has no candump text
      log_.drop(1);
      return;
    }
    line[n] = '\n';
    log_.append({line.data(), n + 1});
  });
}

void CanLogRecorder::service() {
  drain();
  log_.flush_if_due();
}

void CanLogRecorder::stop() {
  drain();
  log_.close();
}

CanLogCounters CanLogRecorder::counters() const noexcept {
  const LineLogCounters c = log_.counters();
  return {.frames_written = c.lines_written,
          .frames_dropped = tap_.dropped() + c.lines_dropped,
          .frames_durable = c.lines_durable,
          .flushes = c.flushes};
}

}  // namespace hil::io::record
