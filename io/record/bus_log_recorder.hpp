#pragma once
// The run directory's bus.log (io/bus/bus_log.hpp): every input snapshot the bus consumed, with
// its tick. The bus (io/bus/bus_exchange.hpp) pushes into a bounded SPSC ring (dropping and
// counting when full, as the CAN tap does); service(), on a non-RT thread, drains it into the
// file's lines (line_log.hpp: written and synced at least every flush_interval, whole lines on
// a full disk).
//
// Thread-safety: tap() is the RT thread's (the producer); service() and stop() from one
// non-RT thread at a time; counters() and error() from any thread.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/bus/bus_exchange.hpp"
#include "io/record/line_log.hpp"

namespace hil::io::record {

struct BusLogSpec {
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
  /// Setup: creates the file (std::system_error naming it), writes its header, sizes the ring.
  BusLogRecorder(const std::filesystem::path& path, BusLogSpec config);
  ~BusLogRecorder();
  BusLogRecorder(const BusLogRecorder&) = delete;
  BusLogRecorder& operator=(const BusLogRecorder&) = delete;

  /// The ring the bus pushes into (BusExchange::set_tap); the RT thread is its producer.
  [[nodiscard]] io::bus::SnapshotTap& tap() noexcept { return tap_; }
  /// The RT thread: half of the ring free (a loop not paced by real time waits for it).
  [[nodiscard]] bool has_room() const noexcept {
    return tap_.write_available() * 2 >= config_.ring_snapshots;
  }
  /// Non-RT, every few ms: drains the ring into lines, flushes when the interval is due.
  void service();
  /// Drains the ring, flushes and closes; the bus must not push any more. Idempotent.
  void stop();
  /// Any thread.
  [[nodiscard]] BusLogCounters counters() const noexcept;
  /// The first write error ("" if none).
  [[nodiscard]] std::string error() const { return log_.error(); }

 private:
  void drain();

  BusLogSpec config_;
  LineLog log_;
  io::bus::SnapshotTap tap_;
  std::string line_;  // the line being formatted
};

}  // namespace hil::io::record
