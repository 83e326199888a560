#pragma once

#include <cstdint>

#include "rt_core/overrun_policy.hpp"
#include "rt_core/time.hpp"

namespace hil::rt {

inline constexpr Nanoseconds kMinPeriod = 50 * kMicrosecond;
inline constexpr Nanoseconds kMaxPeriod = 100 * kMillisecond;

/// Settings of one fixed-step loop. Periods from kMinPeriod to kMaxPeriod.
struct ExecutiveSpec {
  Nanoseconds period = 250 * kMicrosecond;
  OverrunPolicy overrun{};
  /// Each task's execution time is measured on every n-th tick (1: every tick, as a real-time
  /// run and `hilsim timing` want). A run faster than real time samples (16): one clock read
  /// per task is ~30 ns, a sixth of a RAVON tick's tasks. The tick's own execution time, and
  /// so overruns, are measured on every tick either way.
  std::uint32_t task_timing_stride = 1;
};

}  // namespace hil::rt
