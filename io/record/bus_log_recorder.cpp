#include "io/record/bus_log_recorder.hpp"

#include <span>
#include <system_error>

#include "io/bus/bus_log.hpp"

namespace hil::io::record {

BusLogRecorder::BusLogRecorder(const std::filesystem::path& path, BusLogConfig config)
    : config_(std::move(config)), sink_(path), tap_(config_.ring_snapshots) {
  buffer_.reserve(1 << 20);
  buffer_.append(io::bus::kBusLogHeader);
  buffer_ += '\n';
  thread_ = std::jthread([this](const std::stop_token& stop) {
    auto last_flush = std::chrono::steady_clock::now();
    while (!stop.stop_requested()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      drain();
      if (std::chrono::steady_clock::now() - last_flush >= config_.flush_interval) {
        flush();
        last_flush = std::chrono::steady_clock::now();
      }
    }
  });
}

BusLogRecorder::~BusLogRecorder() { stop(); }

void BusLogRecorder::drain() {
  tap_.drain([&](const io::bus::ConsumedSnapshot& s) {
    if (failed_ || s.region >= config_.regions.size()) {
      write_dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    io::bus::append_bus_log_line(buffer_, config_.regions[s.region], s);
    written_.fetch_add(1, std::memory_order_relaxed);
  });
}

void BusLogRecorder::flush() {
  if (failed_) return;
  try {
    if (!buffer_.empty()) {
      sink_.write(std::span(reinterpret_cast<const std::uint8_t*>(buffer_.data()), buffer_.size()));
      buffer_.clear();
    }
    sink_.sync();
  } catch (const std::system_error& e) {
    const std::scoped_lock lock(error_mutex_);
    error_ = e.what();
    failed_ = true;
    buffer_.clear();
  }
}

void BusLogRecorder::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
  drain();
  flush();
}

BusLogCounters BusLogRecorder::counters() const noexcept {
  return {.snapshots_written = written_.load(std::memory_order_relaxed),
          .snapshots_dropped = tap_.dropped() + write_dropped_.load(std::memory_order_relaxed)};
}

std::string BusLogRecorder::error() const {
  const std::scoped_lock lock(error_mutex_);
  return error_;
}

}  // namespace hil::io::record
