#pragma once
// FROM:TO:STEP ranges for sweeps on the command line (hilsim tire-curve).

#include <cstddef>
#include <string>

namespace hil::cli {

struct SweepRange {
  double from = 0.0;
  double to = 0.0;
  double step = 1.0;

  /// Number of points from, from + step, ... up to and including `to` (within 1e-9 step).
  [[nodiscard]] std::size_t count() const;
  /// The i-th point, computed as from + i·step (no accumulated rounding).
  [[nodiscard]] double at(std::size_t i) const;
};

/// Parses "FROM:TO:STEP" with FROM ≤ TO inside [lo, hi] and STEP > 0, at most max_points.
/// Throws CLI::ValidationError naming `option` and what is wrong.
[[nodiscard]] SweepRange parse_sweep_range(const std::string& option, const std::string& text,
                                           double lo, double hi, std::size_t max_points);

}  // namespace hil::cli
