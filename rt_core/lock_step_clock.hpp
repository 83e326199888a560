#pragma once
// As fast as possible, but only as far as told: `hilsim run --speed max --paused`. Each tick
// waits at sleep_until() until a step (or resume) lets it through; other threads step, pause
// and resume and see where the loop waits (docs/api.md "step"). Time is free-running as in
// FreeRunningClock, without the waits: a tick that waited for a step is not late.
//
// Thread-safety: now() and sleep_until() on the loop's thread (which is not real-time in this
// mode: it blocks); step/pause/resume/ticks_through/waiting from any thread.

#include <atomic>
#include <cstdint>
#include <limits>

#include "rt_core/channel_condition.hpp"
#include "rt_core/clock.hpp"

namespace hil::rt {

class LockStepClock final : public Clock {
 public:
  static constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max();

  explicit LockStepClock(bool paused) noexcept : limit_(paused ? 0 : kUnlimited) {}

  [[nodiscard]] Nanoseconds now() noexcept override { return base_ + (wall_.now() - anchor_); }

  void sleep_until(Nanoseconds deadline) noexcept override {
    const Nanoseconds current = now();  // before any wait: waiting is not work
    const std::int64_t next = through_.load(std::memory_order_relaxed);  // only this thread adds
    stop_if_watched_holds(next);
    for (std::int64_t limit = limit_.load(std::memory_order_acquire); next >= limit;
         limit = limit_.load(std::memory_order_acquire)) {
      waiting_.store(true, std::memory_order_release);
      limit_.wait(limit, std::memory_order_acquire);
      waiting_.store(false, std::memory_order_release);
    }
    through_.store(next + 1, std::memory_order_release);
    base_ = deadline > current ? deadline : current;
    anchor_ = wall_.now();
  }

  /// Lets `ticks` more ticks through; returns the count of ticks through when the loop waits
  /// again (the tick it waits before).
  std::int64_t step(std::int64_t ticks) noexcept {
    watched_.store(nullptr, std::memory_order_release);
    return grant(ticks);
  }
  /// Like step(), but the loop also stops after the first tick whose value of `watched` (the
  /// loop's own table: read on the loop's thread between ticks) meets `condition` — where
  /// `wait_for` with a step stops, deterministically. The watch ends when it fires, or with the
  /// next step(), pause() or resume().
  std::int64_t step_until(std::int64_t ticks, const double* watched,
                          ChannelCondition condition) noexcept {
    watch_fired_.store(false, std::memory_order_relaxed);
    watch_op_.store(condition.op, std::memory_order_relaxed);
    watch_threshold_.store(condition.threshold, std::memory_order_relaxed);
    watched_.store(watched, std::memory_order_release);
    return grant(ticks);
  }
  /// The last watch stopped the loop (cleared by the next step_until()).
  [[nodiscard]] bool stopped_by_watch() const noexcept {
    return watch_fired_.load(std::memory_order_acquire);
  }
  /// Lets no more ticks through than have started (the tick under way finishes).
  void pause() noexcept {
    watched_.store(nullptr, std::memory_order_release);
    limit_.store(through_.load(std::memory_order_acquire), std::memory_order_release);
  }
  /// As fast as possible again (also: to end a paused run).
  void resume() noexcept {
    watched_.store(nullptr, std::memory_order_release);
    limit_.store(kUnlimited, std::memory_order_release);
    limit_.notify_all();
  }
  [[nodiscard]] bool paused() const noexcept {
    return limit_.load(std::memory_order_acquire) != kUnlimited;
  }
  /// Ticks let through so far (the next tick to run is this one).
  [[nodiscard]] std::int64_t ticks_through() const noexcept {
    return through_.load(std::memory_order_acquire);
  }
  /// Ticks allowed through in all (kUnlimited while running free): where the loop will wait.
  [[nodiscard]] std::int64_t limit() const noexcept {
    return limit_.load(std::memory_order_acquire);
  }
  /// The loop waits at the gate (its steps used up).
  [[nodiscard]] bool waiting() const noexcept { return waiting_.load(std::memory_order_acquire); }

 private:
  std::int64_t grant(std::int64_t ticks) noexcept {
    std::int64_t limit = limit_.load(std::memory_order_acquire);
    while (limit != kUnlimited &&
           !limit_.compare_exchange_weak(limit, limit + ticks, std::memory_order_acq_rel)) {
    }
    limit_.notify_all();
    return limit == kUnlimited ? through_.load(std::memory_order_acquire) + ticks : limit + ticks;
  }

  /// The loop's thread, before tick `next`: a watch that holds pauses the loop here.
  void stop_if_watched_holds(std::int64_t next) noexcept {
    const double* watched = watched_.load(std::memory_order_acquire);
    if (watched == nullptr) return;
    if (!compare(*watched, watch_op_.load(std::memory_order_relaxed),
                 watch_threshold_.load(std::memory_order_relaxed))) {
      return;
    }
    watched_.store(nullptr, std::memory_order_relaxed);
    watch_fired_.store(true, std::memory_order_release);
    std::int64_t limit = limit_.load(std::memory_order_acquire);
    while (limit > next && !limit_.compare_exchange_weak(limit, next, std::memory_order_acq_rel)) {
    }
  }

  MonotonicClock wall_;
  Nanoseconds base_ = kSecond;
  Nanoseconds anchor_ = wall_.now();
  std::atomic<std::int64_t> limit_;  ///< ticks allowed through in all
  std::atomic<std::int64_t> through_{0};
  std::atomic<bool> waiting_{false};
  std::atomic<const double*> watched_{nullptr};
  std::atomic<Compare> watch_op_{Compare::greater};
  std::atomic<double> watch_threshold_{0.0};
  std::atomic<bool> watch_fired_{false};
};

}  // namespace hil::rt
