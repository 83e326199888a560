#pragma once
// The executive's notion of "now" and "sleep until". Production uses CLOCK_MONOTONIC;
// tests may substitute a simulated clock to drive exact overrun scenarios.

#include <ctime>

#include "rt_core/time.hpp"

namespace hil::rt {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Current time in ns. Called from the RT thread: must not block or allocate.
  [[nodiscard]] virtual Nanoseconds now() noexcept = 0;
  /// Blocks until `deadline` (absolute); returns at once if it has passed.
  virtual void sleep_until(Nanoseconds deadline) noexcept = 0;
  /// sleep_until(deadline), then now(): the time the caller woke. Clocks that know it without
  /// reading a clock again override it (the executive calls it once per tick).
  [[nodiscard]] virtual Nanoseconds wake_at(Nanoseconds deadline) noexcept {
    sleep_until(deadline);
    return now();
  }
};

/// CLOCK_MONOTONIC with clock_nanosleep(TIMER_ABSTIME): absolute deadlines, no drift.
/// Thread-safe (stateless).
class MonotonicClock final : public Clock {
 public:
  [[nodiscard]] Nanoseconds now() noexcept override {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * kSecond + ts.tv_nsec;
  }
  void sleep_until(Nanoseconds deadline) noexcept override {
    const timespec ts{.tv_sec = deadline / kSecond, .tv_nsec = deadline % kSecond};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
      // EINTR: a signal woke us early; the deadline is absolute, so just sleep again.
    }
  }
};

/// Virtual time that moves only when told: sleep_until() jumps to the deadline at once and
/// advance() simulates work. Runs the executive as fast as the machine can (replay, tests of
/// exact overrun scenarios): every tick starts on its deadline, none is ever late unless
/// advance() says so. One thread at a time.
class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(Nanoseconds start = kSecond) noexcept : now_(start) {}
  [[nodiscard]] Nanoseconds now() noexcept override { return now_; }
  void sleep_until(Nanoseconds deadline) noexcept override {
    if (deadline > now_) now_ = deadline;
  }
  /// Simulates work of the given cost.
  void advance(Nanoseconds by) noexcept { now_ += by; }

 private:
  Nanoseconds now_;
};

/// As fast as possible, with honest timing: time advances with the work done (measured on
/// CLOCK_MONOTONIC) and jumps to each deadline instead of sleeping. The executive's execution
/// times are real; wake-up latency is zero; an overrun is a tick whose work took longer than
/// the period (it would have overrun in real time). `hilsim run --speed max`. One thread.
class FreeRunningClock final : public Clock {
 public:
  [[nodiscard]] Nanoseconds now() noexcept override {
    last_read_ = wall_.now();
    fresh_ = true;
    return base_ + (last_read_ - anchor_);
  }
  void sleep_until(Nanoseconds deadline) noexcept override { (void)wake_at(deadline); }
  /// The time jumps to the deadline (or stays, if it passed), from the wall clock's reading by
  /// the now() just before, if there was one (the executive reads now() at the end of each
  /// tick's work, then wakes for the next): what ran in between counts as the next tick's work,
  /// so the time line loses nothing, and a tick costs one read of the wall clock, not two.
  [[nodiscard]] Nanoseconds wake_at(Nanoseconds deadline) noexcept override {
    const Nanoseconds wall = fresh_ ? last_read_ : wall_.now();
    fresh_ = false;
    const Nanoseconds current = base_ + (wall - anchor_);
    base_ = deadline > current ? deadline : current;
    anchor_ = wall;
    return base_;
  }

 private:
  MonotonicClock wall_;
  Nanoseconds base_ = kSecond;
  Nanoseconds anchor_ = wall_.now();
  Nanoseconds last_read_ = 0;
  bool fresh_ = false;  ///< last_read_ is the latest reading, not yet used by wake_at()
};

/// Simulated time at `factor` × real time on CLOCK_MONOTONIC (2: twice as fast, 0.5: half):
/// deadlines are absolute on the scaled time line, so the pace does not drift. Execution
/// times read in simulated time (work of 10 µs at factor 2 reads as 20 µs). One thread.
class ScaledClock final : public Clock {
 public:
  explicit ScaledClock(double factor) noexcept : factor_(factor), start_(wall_.now()) {}
  [[nodiscard]] Nanoseconds now() noexcept override {
    return static_cast<Nanoseconds>(static_cast<double>(wall_.now() - start_) * factor_);
  }
  void sleep_until(Nanoseconds deadline) noexcept override {
    wall_.sleep_until(start_ + static_cast<Nanoseconds>(static_cast<double>(deadline) / factor_));
  }

 private:
  double factor_;
  MonotonicClock wall_;
  Nanoseconds start_;
};

/// Busy-waits `duration` on CLOCK_MONOTONIC: a synthetic workload of a known cost.
inline void spin_for(Nanoseconds duration) noexcept {
  MonotonicClock clock;
  const Nanoseconds until = clock.now() + duration;
  while (clock.now() < until) {
  }
}

}  // namespace hil::rt
