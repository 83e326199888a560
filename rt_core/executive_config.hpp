#pragma once

#include "rt_core/overrun_policy.hpp"
#include "rt_core/time.hpp"

namespace hil::rt {

inline constexpr Nanoseconds kMinPeriod = 50 * kMicrosecond;
inline constexpr Nanoseconds kMaxPeriod = 100 * kMillisecond;

/// Settings of one fixed-step loop. Periods from kMinPeriod to kMaxPeriod.
struct ExecutiveConfig {
  Nanoseconds period = 250 * kMicrosecond;
  OverrunPolicy overrun{};
};

}  // namespace hil::rt
