#pragma once
// Shared by the io/record tests: a channel table shaped like a vehicle's, values that are a
// known function of (tick, channel), a way to record N ticks, and sinks that block or fail.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "io/record/byte_sink.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::record::testing {

/// Four groups: two wheels, the battery, and a group with a channel named "tick" (which must
/// not collide with the message's own tick field). Frozen. (A frozen table cannot move, so
/// this is a table type rather than a factory.)
struct VehicleTable : rt::ChannelTable {
  VehicleTable();
};

inline VehicleTable::VehicleTable() {
  rt::ChannelTable& t = *this;
  using rt::Direction;
  t.add({.name = "vehicle.wheel.fl.speed", .unit = "rad/s", .description = "wheel spin rate"});
  t.add({.name = "vehicle.wheel.fl.slip", .unit = "-"});
  t.add({.name = "vehicle.wheel.fr.speed", .unit = "rad/s"});
  t.add({.name = "vehicle.wheel.fr.slip", .unit = "-"});
  t.add({.name = "vehicle.wheel.fl.speed_ref", .unit = "rad/s", .direction = Direction::input});
  t.add({.name = "vehicle.battery.voltage", .unit = "V"});
  t.add({.name = "rt.loop.tick", .unit = "-"});
  t.freeze();
}

/// Every recorded value is this function of its tick and channel index: a reader that
/// mixes up ticks, channels or groups reads different numbers.
inline double value_of(std::int64_t tick, std::size_t channel) {
  return static_cast<double>(tick) * 0.5 + static_cast<double>(channel) * 1000.0 + 0.25;
}

inline void fill_values(std::int64_t tick, std::span<double> values) {
  for (std::size_t c = 0; c < values.size(); ++c) values[c] = value_of(tick, c);
}

struct Pushed {
  std::uint64_t queued = 0;     ///< decimated ticks that went into the ring
  std::uint64_t ring_full = 0;  ///< pushes refused (and counted) because the ring was full
};

/// Pushes ticks [0, ticks) with value_of(); when the ring is full it waits and pushes again
/// (a test, not the RT loop) so that every decimated tick is recorded.
inline Pushed push_ticks(TelemetryRecorder& rec, std::int64_t ticks, std::size_t channels) {
  std::vector<double> values(channels);
  Pushed pushed;
  for (std::int64_t k = 0; k < ticks; ++k) {
    fill_values(k, values);
    for (;;) {
      const PushResult r = rec.push(k, values);
      if (r != PushResult::dropped) {
        pushed.queued += r == PushResult::queued ? 1 : 0;
        break;
      }
      ++pushed.ring_full;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  return pushed;
}

struct RecordedRun {
  std::int64_t ticks = 0;
  std::int64_t period_ns = 1'000'000;
  std::uint64_t start_ns = 1'700'000'000'000'000'000;
  std::size_t chunk_bytes = 16 * 1024;
  Compression compression = Compression::zstd;
};

/// Records `run.ticks` ticks of `table` with value_of(), an event at the first tick and a
/// fault at the last, into `path`.
inline void record_file(const rt::ChannelTable& table, const std::filesystem::path& path,
                        const RecordedRun& run) {
  TelemetryRecorder rec(table, path,
                        {.tick_period_ns = run.period_ns,
                         .start_time_ns = run.start_ns,
                         .chunk_bytes = run.chunk_bytes,
                         .compression = run.compression,
                         .run_metadata = {{"rig", "bench"}}});
  if (!rec.push_event(0, "event", "run started")) throw std::runtime_error("event ring full");
  push_ticks(rec, run.ticks, table.size());
  if (!rec.push_event(run.ticks - 1, "fault", "vehicle.battery.voltage stuck at 0")) {
    throw std::runtime_error("event ring full");
  }
  rec.stop();
  if (!rec.error().empty()) throw std::runtime_error(rec.error());
}

/// Accepts writes until armed; then every write blocks until released. Counts writes.
class BlockingSink final : public ByteSink {
 public:
  void write(std::span<const std::uint8_t> bytes) override {
    std::unique_lock lock(mutex_);
    if (armed_) {
      blocked_ = true;
      changed_.notify_all();
      changed_.wait(lock, [this] { return !armed_; });
      blocked_ = false;
    }
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  }
  void sync() override {}

  void arm() {
    const std::scoped_lock lock(mutex_);
    armed_ = true;
  }
  /// Waits until a write is blocked (true) or `timeout` passed (false).
  bool wait_blocked(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [this] { return blocked_; });
  }
  void release() {
    const std::scoped_lock lock(mutex_);
    armed_ = false;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool armed_ = false, blocked_ = false;
  std::vector<std::uint8_t> bytes_;
};

/// A disk that fills up: writes fail with `error` (ENOSPC: full; EIO: failing) after `limit`
/// bytes.
class FullDiskSink final : public ByteSink {
 public:
  explicit FullDiskSink(std::size_t limit, int error = ENOSPC) : limit_(limit), error_(error) {}
  void write(std::span<const std::uint8_t> bytes) override {
    if (written_ + bytes.size() > limit_) {
      throw std::system_error(error_, std::generic_category(), "cannot write 'telemetry.mcap'");
    }
    written_ += bytes.size();
  }
  void sync() override {}

 private:
  std::size_t limit_, written_ = 0;
  int error_;
};

}  // namespace hil::io::record::testing
