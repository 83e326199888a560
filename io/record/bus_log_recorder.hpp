#pragma once
// The run directory's bus.log (io/bus/bus_log.hpp): every input snapshot the bus task consumed,
// with its tick. The task pushes into a bounded SPSC ring (dropping and counting when full,
// as the CAN tap does); a std::jthread (not RT) drains it, formats the lines and writes them,
// flushing (write + fdatasync) at least every flush_interval and on stop(): after a SIGKILL,
// everything up to the last flush is a valid log.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/bus/bus_exchange.hpp"
#include "io/record/byte_sink.hpp"

namespace hil::io::record {

struct BusLogConfig {
  std::vector<std::string> regions;   ///< the name of region i
  std::size_t ring_snapshots = 1024;  ///< the tap's capacity (each ~1.4 kB)
  std::chrono::milliseconds flush_interval{1000};
};

struct BusLogCounters {
  std::uint64_t snapshots_written = 0;
  std::uint64_t snapshots_dropped = 0;  ///< ring full (RT side) or write errors
};

class BusLogRecorder {
 public:
  /// Setup: creates the file (std::system_error naming it), sizes the ring, starts the thread.
  BusLogRecorder(const std::filesystem::path& path, BusLogConfig config);
  ~BusLogRecorder();
  BusLogRecorder(const BusLogRecorder&) = delete;
  BusLogRecorder& operator=(const BusLogRecorder&) = delete;
  BusLogRecorder(BusLogRecorder&&) = delete;
  BusLogRecorder& operator=(BusLogRecorder&&) = delete;

  /// The ring the bus task pushes into (BusExchange::set_tap); the RT thread is its producer.
  [[nodiscard]] io::bus::SnapshotTap& tap() noexcept { return tap_; }
  /// The RT thread: half of the ring free (a loop not paced by real time waits for it).
  [[nodiscard]] bool has_room() const noexcept {
    return tap_.write_available() * 2 >= config_.ring_snapshots;
  }
  /// Drains the ring, flushes and closes; the task must not push any more. Idempotent.
  void stop();
  /// Any thread.
  [[nodiscard]] BusLogCounters counters() const noexcept;
  /// The first write error ("" if none).
  [[nodiscard]] std::string error() const;

 private:
  void drain();
  void flush();

  BusLogConfig config_;
  FileSink sink_;
  io::bus::SnapshotTap tap_;
  std::string buffer_;
  bool failed_ = false;  // writer thread only
  std::atomic<std::uint64_t> written_{0}, write_dropped_{0};
  mutable std::mutex error_mutex_;
  std::string error_;
  std::jthread thread_;
};

}  // namespace hil::io::record
