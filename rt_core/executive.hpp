#pragma once
// The fixed-step executive: absolute deadlines on a Clock, an integer tick counter, an ordered
// list of stages (rt_core/stage.hpp) run each tick — read, then update, then write —,
// multi-rate by integer decimation, overrun detection and policy, timing statistics. Owns the
// loop; the stages do the work.

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rt_core/clock.hpp"
#include "rt_core/executive_spec.hpp"
#include "rt_core/rt_log.hpp"
#include "rt_core/stage.hpp"
#include "rt_core/stats/timing_stats.hpp"

namespace hil::rt {

enum class StopReason : std::uint8_t { tick_limit, stop_requested, overrun_limit };

struct RunResult {
  StopReason reason = StopReason::tick_limit;
  std::int64_t ticks = 0;  ///< ticks executed
};

class Executive {
 public:
  /// Setup: validates the config and the stages (throws std::invalid_argument saying what is
  /// wrong: a bad rate, a null stage, a phase that goes back), allocates every buffer the loop
  /// will use. Each tick runs the due stages in the order given. `clock` and the stages must
  /// outlive it.
  Executive(ExecutiveSpec config, std::vector<StageEntry> stages, Clock& clock,
            RtLog* log = nullptr);

  /// Runs ticks on the calling thread until `max_ticks` ticks ran in all (negative: no
  /// limit), a stop is requested, or the stop_after policy ends the run. May be called again
  /// to continue (replay runs the loop in segments; a paused run resumes): the tick counter
  /// goes on, and a deadline that passed while paused is re-anchored to now rather than
  /// counted as an overrun. One thread at a time: no allocation, no locks, no exceptions.
  [[nodiscard]] RunResult run(std::int64_t max_ticks) noexcept;

  /// Ticks executed so far (the next tick's number). The thread calling run().
  [[nodiscard]] std::int64_t ticks_run() const noexcept { return next_tick_; }

  /// Any thread: ends run() after the tick in progress.
  void request_stop() noexcept { stop_.store(true, std::memory_order_release); }

  /// Any thread may call stats().snapshot() while the loop runs.
  [[nodiscard]] const TimingStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const ExecutiveSpec& config() const noexcept { return config_; }
  [[nodiscard]] std::span<const StageEntry> stages() const noexcept { return stages_; }

 private:
  /// Every due stage in order, charging each its execution time where `timed`; returns the
  /// time at which the last ended.
  Nanoseconds run_stages(std::int64_t tick, Nanoseconds started, bool timed) noexcept;
  /// First deadline after `end`, counting how many were dropped on the way.
  [[nodiscard]] Nanoseconds drop_missed(Nanoseconds next, Nanoseconds end,
                                        std::uint32_t& missed) const noexcept;
  [[nodiscard]] bool overrun_limit_reached(std::int64_t tick) const noexcept;

  ExecutiveSpec config_;
  std::vector<StageEntry> stages_;
  std::vector<double> dt_s_;             // per stage: period × decimation [s]
  std::vector<Nanoseconds> stage_exec_;  // per stage, this tick: exec time, or -1 if not due
  std::vector<Nanoseconds> untimed_;     // all -1: a tick whose stages were not timed
  // The next tick each stage is due at (tick % decimation == offset), and the next tick whose
  // stages are timed: counted on as the ticks go, no division per tick
  std::vector<std::int64_t> next_due_;
  std::int64_t next_timed_ = 0;
  Clock& clock_;
  RtLog* log_;
  TimingStats stats_;
  std::atomic<bool> stop_{false};
  // Where a continued run() resumes
  std::int64_t next_tick_ = 0;
  Nanoseconds deadline_ = 0;
  std::uint32_t catch_up_streak_ = 0;
  bool started_late_ = false;
};

}  // namespace hil::rt
