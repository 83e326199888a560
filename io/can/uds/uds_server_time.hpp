#pragma once
// Time arithmetic of the UDS server on int64 nanoseconds that never overflows, whatever times
// a caller passes (a clock that jumps back counts as no time elapsed). RT-safe.

#include <cstdint>
#include <limits>

namespace hil::io::can::uds {

/// now − since ≥ duration (duration ≥ 0); false while now < since.
[[nodiscard]] constexpr bool reached(std::int64_t now, std::int64_t since,
                                     std::int64_t duration) noexcept {
  if (now < since) return false;
  const std::uint64_t elapsed = static_cast<std::uint64_t>(now) - static_cast<std::uint64_t>(since);
  return elapsed >= static_cast<std::uint64_t>(duration);
}

/// t + d (d ≥ 0), saturating at the largest time.
[[nodiscard]] constexpr std::int64_t saturating_add(std::int64_t t, std::int64_t d) noexcept {
  return t > std::numeric_limits<std::int64_t>::max() - d ? std::numeric_limits<std::int64_t>::max()
                                                          : t + d;
}

}  // namespace hil::io::can::uds
