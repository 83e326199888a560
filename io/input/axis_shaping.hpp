#pragma once
// The one shaping of a driver's axis (docs/console.md "Driving"), for every device — the page's
// gamepad and keyboard, an evdev joystick — from its raw value to the channel's target:
//   n = (raw − min)/(max − min)               a pedal: 0..1
//   n = 2·(raw − min)/(max − min) − 1         a stick or wheel: −1..1 about the middle
//   invert                                    a pedal 1 − n, else −n
//   dead zone d: |n| < d → 0, else sign(n)·(|n| − d)/(1 − d)   (full travel still reaches 1)
//   curve e: sign(n)·|n|^e
//   target = scale · n
// and the rate limit, which moves the value toward its target by at most rate·|scale| per
// second. Pure functions and a value type: thread-safety of a value.

#include "io/input/driver_mapping.hpp"

namespace hil::io::input {

/// The target of an axis at `raw` (clamped to the raw range). Pure.
[[nodiscard]] double shape_axis(const AxisShape& shape, double raw) noexcept;

/// A rate limit in time: value() follows the targets given to step() at most `rate` [per
/// second] fast; rate 0 follows at once.
class RateLimiter {
 public:
  /// Moves toward `target` over `dt` seconds (negative dt counts as 0); returns the value.
  double step(double target, double rate, double dt) noexcept;
  /// Sets the value (no limit): where the next step starts from.
  void reset(double value = 0.0) noexcept { value_ = value; }
  [[nodiscard]] double value() const noexcept { return value_; }

 private:
  double value_ = 0.0;
};

}  // namespace hil::io::input
