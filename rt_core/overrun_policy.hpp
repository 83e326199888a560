#pragma once
// What the executive does when a tick's work ends after the next deadline (an overrun).

#include <cstdint>
#include <string_view>

namespace hil::rt {

enum class OverrunKind : std::uint8_t {
  skip,       ///< count it, drop the deadlines already missed, keep the phase (cyclictest).
  catch_up,   ///< run missed ticks back to back, at most `catch_up_max` in a row.
  stop_after  ///< as skip, but stop cleanly after `stop_after_overruns` overruns within
              ///< `stop_after_window_ticks` ticks.
};

struct OverrunPolicy {
  OverrunKind kind = OverrunKind::skip;
  std::uint32_t catch_up_max = 4;
  std::uint32_t stop_after_overruns = 10;  ///< 1..kOverrunRecordCapacity
  std::int64_t stop_after_window_ticks = 4000;
};

/// Number of most recent overruns whose tick number is kept.
inline constexpr std::uint32_t kOverrunRecordCapacity = 1024;

[[nodiscard]] constexpr std::string_view to_string(OverrunKind kind) noexcept {
  switch (kind) {
    case OverrunKind::skip:
      return "skip";
    case OverrunKind::catch_up:
      return "catch_up";
    case OverrunKind::stop_after:
      return "stop_after";
  }
  return "?";
}

}  // namespace hil::rt
