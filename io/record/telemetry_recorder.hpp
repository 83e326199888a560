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
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "io/record/byte_sink.hpp"
#include "io/record/extra_topics.hpp"
#include "io/record/mcap/mcap_writer.hpp"
#include "io/record/telemetry_schema.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/row_ring.hpp"
#include "rt_core/spsc_ring.hpp"

namespace hil::io::record {

struct TelemetryRecorderSpec {
  std::int64_t tick_period_ns = 0;  ///< the executive's base period dt (> 0)
  std::uint64_t start_time_ns = 0;  ///< log_time of tick 0: run start, ns since the UNIX epoch
  double max_rate_hz = 1000.0;      ///< recorded samples per second of a group (decimation)
  /// Groups recorded at another rate: (wildcard on the group name, Hz), first match wins.
  std::vector<std::pair<std::string, double>> group_rates_hz;
  double ring_seconds = 2.0;      ///< ring capacity in seconds of recorded samples (≥ 16)
  std::size_t event_ring = 1024;  ///< events the ring holds
  std::chrono::milliseconds flush_interval{1000};  ///< the longest time between two flushes
  std::size_t chunk_bytes = 4 * 1024 * 1024;       ///< MCAP chunk size (uncompressed)
  Compression compression = Compression::zstd;     ///< of the chunks
  StringMap run_metadata;  ///< written as the MCAP Metadata record "hilsim.run"
  /// Split files (docs/recording.md "Split files"): a new file once this many bytes are
  /// written (0: no limit) or this many ticks recorded in it (0: no limit), at a sample's
  /// boundary; each file complete and readable on its own. Files after the first are opened
  /// by `open_part` (the path constructor: telemetry_part_path(), telemetry.1.mcap, …).
  std::uint64_t split_bytes = 0;
  std::int64_t split_ticks = 0;
  std::function<std::unique_ptr<ByteSink>(std::size_t part)> open_part;
  /// Below this many free bytes (asked of `free_bytes` at every flush) the recording stops:
  /// the file is closed complete and the rest is dropped and counted, the run goes on
  /// (0: no watermark).
  /// `free_bytes` answers nullopt when the directory is gone (removed under the run): the
  /// recording stops then too.
  std::uint64_t min_free_bytes = 0;
  std::function<std::optional<std::uint64_t>()> free_bytes;
  /// More topics (io/record/extra_topics.hpp: the 3D scene), written by the recorder thread
  /// from the recorded samples at their own rate; nullptr: none. Must outlive the recorder.
  ExtraTopics* extra_topics = nullptr;
};

/// Counters, all monotonic; samples are whole ticks (all groups of one tick).
struct RecorderCounters {
  std::uint64_t samples_recorded = 0;  ///< written to the MCAP writer
  std::uint64_t samples_dropped = 0;   ///< lost: ring full, wrong size, or after a write error
  std::uint64_t samples_durable = 0;   ///< samples_recorded as of the last completed flush
  std::uint64_t events_recorded = 0;
  std::uint64_t events_dropped = 0;
  std::uint64_t bytes_written = 0;    ///< bytes handed to the file
  std::uint64_t flushes = 0;          ///< completed flushes (data synced to the disk)
  std::uint64_t files = 1;            ///< telemetry files begun (split files)
  std::int64_t stopped_at_tick = -1;  ///< the first tick not recorded after a stop (−1: none)
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
                    TelemetryRecorderSpec config);
  /// The same, writing to any sink (tests, benchmarks).
  TelemetryRecorder(const rt::ChannelTable& table, std::unique_ptr<ByteSink> sink,
                    TelemetryRecorderSpec config);
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
    return tick % decimation_ != 0 || samples_.has_room();
  }
  /// Records an event (fault applied, limit reached, …) at `tick`; kind is cut to 30 and
  /// text to 150 bytes. False (and counted) when the event ring is full.
  [[nodiscard]] bool push_event(std::int64_t tick, std::string_view kind,
                                std::string_view text) noexcept;

  // ---- any thread ----

  [[nodiscard]] RecorderCounters counters() const noexcept;
  /// k: every k-th tick is recorded.
  [[nodiscard]] std::uint32_t decimation() const noexcept { return decimation_; }
  /// Bytes per hour of simulated time this recording takes, estimated from its groups at their
  /// rates: per message its record, index entry, tick and time, 9 bytes a value (zeros are not
  /// written), compressed as measured on RAVON (zstd 5×, lz4 3×; the index is not compressed).
  [[nodiscard]] double estimated_bytes_per_hour() const noexcept;
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
  /// A new McapWriter on `sink` with the schemas, channels and metadata of this recording,
  /// and the extra topics' messages of a file's start.
  void open_writer(std::unique_ptr<ByteSink> sink, std::int64_t first_tick);
  /// The extra topics' schemas and channels in the current file, and their file-start messages.
  void open_extra_topics(std::int64_t first_tick);
  /// Closes the current file complete (its summary written): every sample so far durable.
  void close_file();
  /// The bytes of every file so far, for counters().
  void publish_bytes() noexcept;
  /// Closes the current file complete and opens the next (split files).
  void next_part(std::int64_t first_tick);
  /// Stops the recording for good at `tick`: closes the file complete, says why.
  void stop_recording(std::int64_t tick, const std::string& why);
  /// Asks for the free space; below the watermark stops the recording (true).
  bool below_watermark();
  [[nodiscard]] std::uint64_t log_time(std::int64_t tick) const noexcept;

  TelemetryRecorderSpec config_;
  TelemetrySchema schema_;
  std::uint32_t decimation_;
  rt::RowRing samples_;  // tick + one value per channel
  rt::SpscRing<EventSlot> events_;
  std::atomic<std::uint64_t> samples_dropped_{0};  // by the writer (the ring counts its own)

  // recorder thread only
  std::unique_ptr<McapWriter> writer_;
  std::vector<std::uint16_t> group_channels_;
  std::vector<std::uint32_t> group_decimation_;  // per group: a multiple of decimation_
  std::uint16_t event_channel_ = 0;
  std::vector<ExtraTopic> extra_;              // the extra topics' names and schemas
  std::vector<std::uint16_t> extra_channels_;  // … and their channels in the current file
  std::uint32_t extra_decimation_ = 0;         // a multiple of decimation_; 0: no extra topics
  std::uint32_t extra_sequence_ = 0;
  ExtraTopics::Write write_extra_;  // writes on extra_channels_ at extra_log_time_
  std::uint64_t extra_log_time_ = 0;
  std::int64_t scratch_tick_ = 0;  // the writer's copy of the sample it writes
  std::vector<double> scratch_;
  std::vector<std::uint8_t> message_;
  std::uint32_t sequence_ = 0, event_sequence_ = 0;
  bool failed_ = false;
  const rt::ChannelTable& table_;
  std::size_t part_ = 0;
  std::int64_t part_first_tick_ = 0, last_tick_ = -1;
  std::atomic<std::int64_t> stopped_at_tick_{-1};
  std::atomic<std::uint64_t> files_{1};
  std::uint64_t file_bytes_base_ = 0;   // bytes of the parts before this one
  std::uint64_t checked_at_bytes_ = 0;  // bytes written when the free space was last asked

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
