#pragma once
// The fixed-step executive: absolute deadlines on a Clock, an integer tick counter,
// read → update → write per tick over its tasks, multi-rate by integer decimation, overrun
// detection and policy, timing statistics. Owns the loop; tasks fill the phases.

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rt_core/clock.hpp"
#include "rt_core/executive_config.hpp"
#include "rt_core/rt_log.hpp"
#include "rt_core/task.hpp"
#include "rt_core/timing_stats.hpp"

namespace hil::rt {

/// The phases of one tick (DESIGN.md §3), as bits: a task entry runs in the phases it names.
enum class Phase : std::uint8_t { read = 1, update = 2, write = 4 };
inline constexpr std::uint8_t kAllPhases = 7;

/// A task and its rate: it runs on ticks k with k mod decimation == offset, in `phases`
/// (a mask of Phase bits; a component acting in two phases of a tick, e.g. a CAN bus that
/// drains in read and sends in write, is two entries with one phase each).
struct TaskEntry {
  std::string name;
  Task* task = nullptr;
  std::uint32_t decimation = 1;
  std::uint32_t offset = 0;
  std::uint8_t phases = kAllPhases;
};

enum class StopReason : std::uint8_t { tick_limit, stop_requested, overrun_limit };

struct RunResult {
  StopReason reason = StopReason::tick_limit;
  std::int64_t ticks = 0;  ///< ticks executed
};

class Executive {
 public:
  /// Setup: validates the config and tasks (throws std::invalid_argument saying what is
  /// wrong), allocates every buffer the loop will use. `clock` and the tasks must outlive it.
  Executive(ExecutiveConfig config, std::vector<TaskEntry> tasks, Clock& clock,
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
  [[nodiscard]] const ExecutiveConfig& config() const noexcept { return config_; }
  [[nodiscard]] std::span<const TaskEntry> tasks() const noexcept { return tasks_; }

 private:
  /// A task's phase in a tick's order of calls, with the step it is given (set up once).
  struct Call {
    Task* task = nullptr;
    std::size_t index = 0;  ///< in tasks_
    Phase phase = Phase::update;
    Nanoseconds dt = 0;
    double dt_s = 0.0;
  };
  /// Every phase of every due task, in calls_' order, charging each task its execution time
  /// where `timed`; returns the time at which the last ended.
  Nanoseconds run_calls(std::int64_t tick, Nanoseconds started, bool timed) noexcept;
  /// First deadline after `end`, counting how many were dropped on the way.
  [[nodiscard]] Nanoseconds drop_missed(Nanoseconds next, Nanoseconds end,
                                        std::uint32_t& missed) const noexcept;
  [[nodiscard]] bool overrun_limit_reached(std::int64_t tick) const noexcept;

  ExecutiveConfig config_;
  std::vector<TaskEntry> tasks_;
  std::vector<Call> calls_;             // read phases, then update, then write
  std::vector<Nanoseconds> task_exec_;  // per task, this tick: exec time, or -1 if not due
  std::vector<Nanoseconds> untimed_;    // all -1: a tick whose tasks were not timed
  // The next tick each task is due at (tick % decimation == offset), and the next tick whose
  // tasks are timed: counted on as the ticks go, no division per tick
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
