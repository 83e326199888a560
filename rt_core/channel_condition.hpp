#pragma once
// A condition on one channel's value, "vehicle.body.speed > 0.9": what `wait_for` waits for and
// what starts or stops a capture (docs/api.md), and where a lock-step run stops
// (lock_step_clock.hpp). Parsed at setup; holds() is RT-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rt_core/channel_table.hpp"

namespace hil::rt {

enum class Compare : std::uint8_t { greater, less, greater_equal, less_equal, equal, not_equal };

[[nodiscard]] std::string_view to_string(Compare c) noexcept;

/// `value OP threshold` for a comparison; false for NaN (as IEEE comparisons are).
[[nodiscard]] constexpr bool compare(double value, Compare op, double threshold) noexcept {
  switch (op) {
    case Compare::greater:
      return value > threshold;
    case Compare::less:
      return value < threshold;
    case Compare::greater_equal:
      return value >= threshold;
    case Compare::less_equal:
      return value <= threshold;
    case Compare::equal:
      return value == threshold;
    case Compare::not_equal:
      return value != threshold && value == value;
  }
  return false;
}

/// A condition as written: "NAME OP VALUE" with OP one of > < >= <= == !=.
struct ConditionText {
  std::string channel;
  Compare op = Compare::greater;
  double threshold = 0.0;
};

/// Parses "vehicle.body.speed > 0.9"; nullopt with `error` saying what is wrong.
[[nodiscard]] std::optional<ConditionText> parse_condition(std::string_view text,
                                                           std::string& error);

/// A condition resolved against a table.
struct ChannelCondition {
  ChannelId channel;
  Compare op = Compare::greater;
  double threshold = 0.0;

  [[nodiscard]] bool holds(double value) const noexcept { return compare(value, op, threshold); }
  /// On one tick's whole table (values by channel index).
  [[nodiscard]] bool holds(std::span<const double> values) const noexcept {
    return holds(values[channel.index]);
  }
};

}  // namespace hil::rt
