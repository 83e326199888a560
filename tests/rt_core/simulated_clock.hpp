#pragma once
// A Clock whose time moves only when told: sleep_until jumps to the deadline, work advances
// it explicitly. Drives the executive through exact overrun scenarios in no wall time.

#include "rt_core/clock.hpp"

namespace hil::rt::testing {

class SimulatedClock final : public Clock {
 public:
  [[nodiscard]] Nanoseconds now() noexcept override { return now_; }
  void sleep_until(Nanoseconds deadline) noexcept override {
    if (deadline > now_) now_ = deadline;
  }
  /// Simulates work of the given cost.
  void advance(Nanoseconds by) noexcept { now_ += by; }

 private:
  Nanoseconds now_ = 1'000'000'000;
};

}  // namespace hil::rt::testing
