#pragma once
// Incremental wheel encoder: counts of the wheel's rotation angle at a
// configurable resolution, signed (forward counts up), as a quadrature decoder accumulates
// them. Pure function; RT-safe.

#include <cmath>
#include <cstdint>
#include <numbers>

namespace hil::models {

struct WheelEncoderParams {
  double counts_per_revolution = 4096.0;  ///< after quadrature decoding (> 0)
};

/// floor(θ·cpr/2π): the count of a wheel turned by θ [rad] from where it started. A
/// billionth of a count of tolerance keeps exact multiples of an edge (one full turn =
/// cpr counts) from rounding down.
[[nodiscard]] inline std::int64_t encoder_counts(const WheelEncoderParams& p,
                                                 double theta) noexcept {
  constexpr double kEdgeTolerance = 1e-9;  // [counts]
  return static_cast<std::int64_t>(
      std::floor(theta * p.counts_per_revolution / (2.0 * std::numbers::pi) + kEdgeTolerance));
}

}  // namespace hil::models
