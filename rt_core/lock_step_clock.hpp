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
    std::int64_t limit = limit_.load(std::memory_order_acquire);
    while (limit != kUnlimited &&
           !limit_.compare_exchange_weak(limit, limit + ticks, std::memory_order_acq_rel)) {
    }
    limit_.notify_all();
    return limit == kUnlimited ? through_.load(std::memory_order_acquire) + ticks : limit + ticks;
  }
  /// Lets no more ticks through than have started (the tick under way finishes).
  void pause() noexcept {
    limit_.store(through_.load(std::memory_order_acquire), std::memory_order_release);
  }
  /// As fast as possible again (also: to end a paused run).
  void resume() noexcept {
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
  /// The loop waits at the gate (its steps used up).
  [[nodiscard]] bool waiting() const noexcept { return waiting_.load(std::memory_order_acquire); }

 private:
  MonotonicClock wall_;
  Nanoseconds base_ = kSecond;
  Nanoseconds anchor_ = wall_.now();
  std::atomic<std::int64_t> limit_;  ///< ticks allowed through in all
  std::atomic<std::int64_t> through_{0};
  std::atomic<bool> waiting_{false};
};

}  // namespace hil::rt
