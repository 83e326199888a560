#pragma once
// The root of g(z) = target on [0, hi] for a g that increases from g(0) = 0 (a wheel's load
// against its sinkage: models/tire/bekker_wong.hpp, bekker_flexible.hpp), by the
// Illinois-modified regula falsi (Dowell & Jarratt 1971): bracketed, superlinear, and bounded
// work — at most `max_steps` evaluations of g, to |g − target| ≤ 1e-12·target or a bracket of
// 1e-15·hi. hi when g(hi) ≤ target. Pure: any thread, noexcept, no allocation.

#include <cmath>

namespace hil::models {

template <class G>
[[nodiscard]] double increasing_root(G&& g, double target, double hi, int max_steps) noexcept {
  const double span = hi;
  double lo = 0.0;
  double f_lo = -target;
  double f_hi = g(hi) - target;
  if (f_hi <= 0.0) return hi;  // even at hi it does not reach the target
  int side = 0;
  double z = 0.5 * (lo + hi);
  for (int i = 0; i < max_steps; ++i) {
    z = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    if (!(z > lo && z < hi)) z = 0.5 * (lo + hi);
    const double f = g(z) - target;
    if (std::abs(f) <= 1e-12 * target || hi - lo <= 1e-15 * span) break;
    if (f < 0.0) {
      lo = z;
      f_lo = f;
      if (side == -1) f_hi *= 0.5;  // Illinois: the stale end's value halved
      side = -1;
    } else {
      hi = z;
      f_hi = f;
      if (side == 1) f_lo *= 0.5;
      side = 1;
    }
  }
  return z;
}

}  // namespace hil::models
