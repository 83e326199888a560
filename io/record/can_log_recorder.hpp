#pragma once
// The run directory's can.log (DESIGN.md §7): every CAN frame the rig received and sent, in
// `candump -l` format, one interface name per bus, timestamped with the simulation time of
// the tick that applied (received) or produced (sent) it, offset by the run's start epoch, so
// that a replay maps each frame back to its tick exactly:
//   time = start_epoch + tick·dt   →   tick = round((time − start_epoch)/dt)
// The CAN buses push RecordedFrames into a bounded SPSC ring (io/can/mapping/can_bus.hpp
// FrameTap, dropping and counting when full); service(), on a non-RT thread, drains it into
// the file's lines (line_log.hpp: written and synced at least every flush_interval, whole
// lines on a full disk). Each line ends in the direction suffix of `candump -x`: " R" for a
// frame the rig received, " T" for one it sent (can-utils log2asc turns them into Rx/Tx,
// python-can's reader into is_rx); replay needs it to tell the ECU's frames from the
// simulator's.
//
// Thread-safety: tap() is the RT thread's (the producer); service() and stop() from one
// non-RT thread at a time (the run's I/O thread, then the caller after the run); counters()
// and error() from any thread.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/can/mapping/can_bus.hpp"
#include "io/record/line_log.hpp"

namespace hil::io::record {

struct CanLogSpec {
  std::int64_t tick_period_ns = 0;      ///< dt (> 0)
  std::int64_t start_epoch_ns = 0;      ///< time of tick 0, ns since the UNIX epoch
  std::vector<std::string> interfaces;  ///< the name of bus i in the log
  std::size_t ring_frames = 1 << 16;    ///< the tap's capacity
  std::chrono::milliseconds flush_interval{1000};
  bool mark_direction = true;  ///< append " R"/" T" (candump -x)
};

struct CanLogCounters {
  std::uint64_t frames_written = 0;
  std::uint64_t frames_dropped = 0;  ///< ring full (RT side) or write errors
  std::uint64_t frames_durable = 0;  ///< frames_written as of the last completed flush
  std::uint64_t flushes = 0;
};

class CanLogRecorder {
 public:
  /// Setup: creates the file (std::system_error naming it when it cannot), sizes the ring.
  CanLogRecorder(const std::filesystem::path& path, CanLogSpec config);
  CanLogRecorder(std::unique_ptr<ByteSink> sink, CanLogSpec config);
  ~CanLogRecorder();
  CanLogRecorder(const CanLogRecorder&) = delete;
  CanLogRecorder& operator=(const CanLogRecorder&) = delete;

  /// The ring the CAN buses push into (CanBus::set_tap); the RT thread is its producer.
  [[nodiscard]] io::can::FrameTap& tap() noexcept { return tap_; }

  /// The RT thread: whether the ring has room for a busy tick's frames (half of it free). A
  /// loop that is not paced by real time waits for it, so that nothing is dropped.
  [[nodiscard]] bool has_room() const noexcept {
    return tap_.write_available() * 2 >= config_.ring_frames;
  }

  /// Non-RT, every few ms: drains the ring into lines, flushes when the interval is due.
  void service();
  /// Drains the ring, flushes and closes; the buses must not push any more. Idempotent.
  void stop();
  /// Any thread.
  [[nodiscard]] CanLogCounters counters() const noexcept;
  /// The first write error ("" if none).
  [[nodiscard]] std::string error() const { return log_.error(); }

 private:
  void drain();

  CanLogSpec config_;
  LineLog log_;
  io::can::FrameTap tap_;
};

}  // namespace hil::io::record
