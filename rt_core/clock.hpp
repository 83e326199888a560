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

/// Busy-waits `duration` on CLOCK_MONOTONIC: a synthetic workload of a known cost.
inline void spin_for(Nanoseconds duration) noexcept {
  MonotonicClock clock;
  const Nanoseconds until = clock.now() + duration;
  while (clock.now() < until) {
  }
}

}  // namespace hil::rt
