#pragma once
// Timing statistics of the executive: wake-up latency and execution time per tick and per
// task, overruns with their tick numbers. One RT writer, no lock, no allocation; non-RT
// readers take a consistent copy through a Seqlock.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rt_core/overrun_policy.hpp"
#include "rt_core/seqlock.hpp"
#include "rt_core/stats/histogram.hpp"

namespace hil::rt {

struct OverrunEvent {
  std::int64_t tick = 0;    ///< the tick whose work ended after the next deadline
  Nanoseconds late_by = 0;  ///< how far past that deadline it ended
};

/// What one tick measured; filled by the executive.
struct TickSample {
  std::int64_t tick = 0;
  Nanoseconds wake_latency = 0;            ///< woke − deadline
  Nanoseconds exec = 0;                    ///< end of write phase − wake-up
  std::span<const Nanoseconds> task_exec;  ///< per task; negative = not due this tick
  bool overrun = false;
  Nanoseconds late_by = 0;           ///< valid when overrun
  std::uint32_t missed_periods = 0;  ///< deadlines dropped after this tick
  bool catch_up = false;             ///< this tick started a missed period late
};

struct TimingSnapshot {
  std::int64_t ticks = 0;
  std::uint64_t overruns = 0;
  std::uint64_t missed_periods = 0;
  std::uint64_t catch_up_ticks = 0;
  HistogramSummary wake_latency;
  HistogramSummary exec_time;
  std::vector<HistogramSummary> task_exec_time;  ///< in the order tasks were added
  std::vector<OverrunEvent> recent_overruns;     ///< oldest first, at most 1024
};

class TimingStats {
 public:
  /// Setup only: allocates and prefaults every histogram.
  explicit TimingStats(std::size_t task_count);

  /// RT writer (one thread). Wait-free, no allocation.
  void record(const TickSample& sample) noexcept;

  /// RT writer only: tick of the n-th most recent overrun (n = 0 is the newest), if the
  /// bounded record still holds it.
  [[nodiscard]] std::optional<std::int64_t> recent_overrun_tick(std::uint32_t n) const noexcept;

  /// Any thread: a consistent copy. Allocates; never blocks the writer. Copies every
  /// histogram (~80 kB each): for watchers that poll often, ticks() and overruns() are cheap.
  [[nodiscard]] TimingSnapshot snapshot() const;

  /// Any thread: the counts so far, each exact (not a consistent pair).
  [[nodiscard]] std::int64_t ticks() const noexcept {
    return ticks_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint64_t overruns() const noexcept {
    return overruns_.load(std::memory_order_relaxed);
  }
  /// Any thread: the tick of the latest overrun, if any (exact unless another overrun is
  /// recorded meanwhile).
  [[nodiscard]] std::optional<std::int64_t> last_overrun_tick() const noexcept;

  [[nodiscard]] std::size_t task_count() const noexcept { return task_exec_.size(); }

 private:
  Seqlock seqlock_;
  std::atomic<std::int64_t> ticks_{0};
  std::atomic<std::uint64_t> overruns_{0};
  std::atomic<std::uint64_t> missed_periods_{0};
  std::atomic<std::uint64_t> catch_up_ticks_{0};
  Histogram wake_latency_;
  Histogram exec_time_;
  std::vector<Histogram> task_exec_;
  std::array<std::atomic<std::int64_t>, kOverrunRecordCapacity> overrun_tick_{};
  std::array<std::atomic<Nanoseconds>, kOverrunRecordCapacity> overrun_late_{};
};

}  // namespace hil::rt
