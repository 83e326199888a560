#pragma once
// The telemetry recorder (DESIGN.md §3 write phase, §7 telemetry.mcap): the RT thread
// pushes (tick, all channel values) every tick; every k-th tick (k = ceil(tick rate /
// max_rate_hz)) goes into a bounded SPSC ring, pre-sized at setup; a std::jthread (not RT)
// drains it, encodes one Protobuf message per channel group and writes them to MCAP, flushing
// (chunk written + fdatasync) at least every flush_interval and on stop(). A full ring drops
// the sample and counts it: the RT thread never waits. log_time = start_time_ns + tick·dt.
//
// Use from `hilsim run`:
//   TelemetryRecorder rec(table, run_dir / "telemetry.mcap",
//                         {.tick_period_ns = dt_ns, .start_time_ns = epoch_ns});   // setup
//   (void)rec.push(tick, table.values());                    // RT, write phase, every tick
//   (void)rec.push_event(tick, "fault", "vehicle.wheel.fl.speed stuck at 0");   // RT, rare
//   rec.stop();                                    // after the loop, and on SIGINT/SIGTERM
//   rec.counters().samples_dropped                 // for the manifest and the console

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/lockfree/spsc_queue.hpp>

#include "io/record/byte_sink.hpp"
#include "io/record/mcap_writer.hpp"
#include "io/record/telemetry_schema.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"

namespace hil::io::record {

struct TelemetryRecorderConfig {
  std::int64_t tick_period_ns = 0;  ///< the executive's base period dt (> 0)
  std::uint64_t start_time_ns = 0;  ///< log_time of tick 0: run start, ns since the UNIX epoch
  double max_rate_hz = 1000.0;      ///< recorded samples per second at most (decimation)
  double ring_seconds = 2.0;        ///< ring capacity in seconds of recorded samples (≥ 16)
  std::size_t event_ring = 1024;    ///< events the ring holds
  std::chrono::milliseconds flush_interval{1000};  ///< the longest time between two flushes
  std::size_t chunk_bytes = 512 * 1024;            ///< MCAP chunk size
  StringMap run_metadata;  ///< written as the MCAP Metadata record "hilsim.run"
};

/// Counters, all monotonic; samples are whole ticks (all groups of one tick).
struct RecorderCounters {
  std::uint64_t samples_recorded = 0;  ///< written to the MCAP writer
  std::uint64_t samples_dropped = 0;   ///< lost: ring full, wrong size, or after a write error
  std::uint64_t samples_durable = 0;   ///< samples_recorded as of the last completed flush
  std::uint64_t events_recorded = 0;
  std::uint64_t events_dropped = 0;
  std::uint64_t bytes_written = 0;  ///< bytes handed to the file
  std::uint64_t flushes = 0;        ///< completed flushes (data synced to the disk)
};

enum class PushResult : std::uint8_t {
  queued,     ///< this tick is recorded
  decimated,  ///< not a recorded tick (tick mod k ≠ 0)
  dropped,    ///< ring full (or wrong value count): lost and counted
};

class TelemetryRecorder {
 public:
  /// Setup: creates `path`, writes the header, schemas and channels of every group of
  /// `table`, sizes the rings, starts the recorder thread. Throws std::invalid_argument on
  /// a bad config and std::system_error when the file cannot be created.
  TelemetryRecorder(const rt::ChannelTable& table, const std::filesystem::path& path,
                    TelemetryRecorderConfig config);
  /// The same, writing to any sink (tests, benchmarks).
  TelemetryRecorder(const rt::ChannelTable& table, std::unique_ptr<ByteSink> sink,
                    TelemetryRecorderConfig config);
  TelemetryRecorder(const TelemetryRecorder&) = delete;
  TelemetryRecorder& operator=(const TelemetryRecorder&) = delete;
  /// stop(); errors are kept in error(), never thrown from here.
  ~TelemetryRecorder();

  // ---- the RT thread (the single producer): wait-free, no allocation, no exception ----

  /// Offers tick `tick`'s values (the whole table: values.size() == table.size()).
  [[nodiscard]] PushResult push(std::int64_t tick, std::span<const double> values) noexcept;
  /// Whether push(tick, …) would queue rather than drop for want of room now. A loop that is
  /// not paced by real time (`--speed max`) waits for it, so that nothing is dropped.
  [[nodiscard]] bool has_room_for(std::int64_t tick) const noexcept {
    return tick % decimation_ != 0 || samples_.write_available() >= words_per_sample_;
  }
  /// Records an event (fault applied, limit reached, …) at `tick`; kind is cut to 30 and
  /// text to 150 bytes. False (and counted) when the event ring is full.
  [[nodiscard]] bool push_event(std::int64_t tick, std::string_view kind,
                                std::string_view text) noexcept;

  // ---- any thread ----

  [[nodiscard]] RecorderCounters counters() const noexcept;
  /// k: every k-th tick is recorded.
  [[nodiscard]] std::uint32_t decimation() const noexcept { return decimation_; }
  /// The first write error ("" if none): the recorder then drops (and counts) everything.
  [[nodiscard]] std::string error() const;

  /// Drains the rings, writes the summary and closes the file; the RT thread must not push
  /// concurrently with or after stop(). Idempotent. Call from one non-RT thread.
  void stop();

  /// k = ceil(tick rate / max_rate_hz), at least 1.
  [[nodiscard]] static std::uint32_t decimation_for(std::int64_t tick_period_ns,
                                                    double max_rate_hz);

 private:
  struct EventSlot {
    std::int64_t tick;
    std::uint8_t kind_length, text_length;
    std::array<char, 30> kind;
    std::array<char, 150> text;
  };

  void run(const std::stop_token& stop);
  void drain();
  void write_sample();
  void write_event(const EventSlot& e);
  void flush();
  void fail(const std::exception& e);
  [[nodiscard]] std::uint64_t log_time(std::int64_t tick) const noexcept;

  TelemetryRecorderConfig config_;
  TelemetrySchema schema_;
  std::uint32_t decimation_;
  std::size_t words_per_sample_;  // tick + one value per channel
  boost::lockfree::spsc_queue<double> samples_;
  rt::SpscRing<EventSlot> events_;
  std::atomic<std::uint64_t> samples_dropped_{0};

  // recorder thread only
  std::unique_ptr<McapWriter> writer_;
  std::vector<std::uint16_t> group_channels_;
  std::uint16_t event_channel_ = 0;
  std::vector<double> scratch_;
  std::vector<std::uint8_t> message_;
  std::uint32_t sequence_ = 0, event_sequence_ = 0;
  bool failed_ = false;

  // written by the recorder thread, read by any (relaxed: statistics; flushes_ is release so
  // that a reader that sees a flush sees samples_durable_ of that flush)
  std::atomic<std::uint64_t> samples_recorded_{0}, samples_durable_{0}, events_recorded_{0},
      events_lost_{0}, bytes_written_{0}, flushes_{0};

  mutable std::mutex error_mutex_;
  std::string error_;
  std::mutex wake_mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: starts after everything above exists
};

}  // namespace hil::io::record
