#include "io/record/can_log_recorder.hpp"

#include <algorithm>

#include <array>
#include <span>
#include <stdexcept>
#include <system_error>

#include "io/can/trace/candump_log.hpp"

namespace hil::io::record {

CanLogRecorder::CanLogRecorder(const std::filesystem::path& path, CanLogConfig config)
    : CanLogRecorder(std::make_unique<FileSink>(path), std::move(config)) {}

CanLogRecorder::CanLogRecorder(std::unique_ptr<ByteSink> sink, CanLogConfig config)
    : config_(std::move(config)), sink_(std::move(sink)), tap_(config_.ring_frames) {
  if (config_.tick_period_ns <= 0) throw std::invalid_argument("can.log: tick period must be > 0");
  buffer_.reserve(1 << 20);
  thread_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
}

CanLogRecorder::~CanLogRecorder() { stop(); }

void CanLogRecorder::run(const std::stop_token& stop) {
  auto last_flush = std::chrono::steady_clock::now();
  while (!stop.stop_requested()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    drain();
    if (std::chrono::steady_clock::now() - last_flush >= config_.flush_interval) {
      flush();
      last_flush = std::chrono::steady_clock::now();
    }
  }
}

void CanLogRecorder::drain() {
  std::array<char, io::can::kMaxCandumpLineLength> line{};
  tap_.drain([&](const io::can::RecordedFrame& f) {
    const std::int64_t ns = config_.start_epoch_ns + f.tick * config_.tick_period_ns;
    io::can::CandumpLine l{
        .time = {.seconds = ns / 1'000'000'000,
                 .nanoseconds = static_cast<std::uint32_t>(ns % 1'000'000'000)},
        .interface = f.bus < config_.interfaces.size() ? std::string_view(config_.interfaces[f.bus])
                                                       : std::string_view("can"),
        .frame = f.frame,
        .direction = !config_.mark_direction ? io::can::CandumpDirection::kUnspecified
                     : f.transmitted         ? io::can::CandumpDirection::kTransmitted
                                             : io::can::CandumpDirection::kReceived};
    const std::size_t n = io::can::format_candump_line(l, line);
    if (n == 0 || failed_) {  // an invalid frame has no candump text; a failed disk no room
      write_dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    buffer_.append(line.data(), n);
    buffer_ += '\n';
    written_.fetch_add(1, std::memory_order_relaxed);
  });
}

void CanLogRecorder::flush() {
  if (failed_) return;
  std::size_t done = 0;  // bytes of buffer_ written: whole lines
  try {
    // In pieces of whole lines: a disk that fills keeps every line written before the piece
    // it refused (the sink takes a refused piece back whole)
    constexpr std::size_t kPiece = std::size_t{64} * 1024;
    while (done < buffer_.size()) {
      std::size_t end = std::min(buffer_.size(), done + kPiece);
      if (end < buffer_.size()) end = buffer_.rfind('\n', end - 1) + 1;
      if (end <= done) end = buffer_.find('\n', done) + 1;  // a line longer than a piece
      sink_->write(
          std::span(reinterpret_cast<const std::uint8_t*>(buffer_.data()) + done, end - done));
      done = end;
    }
    buffer_.clear();
    sink_->sync();
    // relaxed: statistics; the release pairs with nothing but keeps durable ≤ written visible
    durable_.store(written_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    flushes_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::system_error& e) {  // from now on every frame is counted as dropped
    const std::scoped_lock lock(error_mutex_);
    error_ = e.what();
    failed_ = true;
    const auto lost = static_cast<std::uint64_t>(
        std::count(buffer_.begin() + static_cast<std::ptrdiff_t>(done), buffer_.end(), '\n'));
    written_.fetch_sub(lost, std::memory_order_relaxed);
    write_dropped_.fetch_add(lost, std::memory_order_relaxed);
    durable_.store(written_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    buffer_.clear();
  }
}

void CanLogRecorder::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
  drain();
  flush();
}

CanLogCounters CanLogRecorder::counters() const noexcept {
  return {.frames_written = written_.load(std::memory_order_relaxed),
          .frames_dropped = tap_.dropped() + write_dropped_.load(std::memory_order_relaxed),
          .frames_durable = durable_.load(std::memory_order_relaxed),
          .flushes = flushes_.load(std::memory_order_relaxed)};
}

std::string CanLogRecorder::error() const {
  const std::scoped_lock lock(error_mutex_);
  return error_;
}

}  // namespace hil::io::record
