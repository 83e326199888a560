#include "io/input/axis_shaping.hpp"

#include <algorithm>
#include <cmath>

namespace hil::io::input {

double shape_axis(const AxisShape& s, double raw) noexcept {
  const double span = s.raw_max - s.raw_min;
  if (!(span > 0.0) || !std::isfinite(raw)) return 0.0;
  const double unit = (std::clamp(raw, s.raw_min, s.raw_max) - s.raw_min) / span;  // 0..1
  double n = s.pedal ? unit : 2.0 * unit - 1.0;
  if (s.invert) n = s.pedal ? 1.0 - n : -n;
  const double magnitude = std::abs(n);
  if (magnitude <= s.dead_zone) return 0.0;
  const double live = (magnitude - s.dead_zone) / (1.0 - s.dead_zone);
  const double curved = std::pow(std::min(live, 1.0), s.exponent);
  return s.scale * std::copysign(curved, n);
}

double RateLimiter::step(double target, double rate, double dt) noexcept {
  if (!(rate > 0.0)) {
    value_ = target;
    return value_;
  }
  const double most = rate * std::max(dt, 0.0);
  value_ += std::clamp(target - value_, -most, most);
  return value_;
}

}  // namespace hil::io::input
