#pragma once
// Ackermann steering geometry for one steered axle (RAVON §3.3, docs/models.md "Steering").
// A central angle d (positive = left turn, ISO 8855) maps to the left and right wheel angles
// so that all wheel axes meet at one turning centre. Pure functions; RT-safe.

namespace hil::models {

struct AckermannParams {
  /// Longitudinal distance from this axle to the line through the turning centre [m]:
  /// the wheelbase for front-only steering, wheelbase/2 for opposite 4WS (RAVON: 0.603 m).
  double b = 0.603;
  double track = 1.156;  ///< tw, distance between the steered wheels' pivots [m]
  /// Largest wheel angle magnitude [rad]; the inner wheel saturates here, including the
  /// singular case b − (tw/2)·tan d → 0 where the exact inner angle reaches π/2.
  double max_wheel_angle = 1.2;
};

struct WheelAngles {
  double left = 0.0;   ///< [rad], positive = wheel turned left
  double right = 0.0;  ///< [rad]
};

/// Exact geometry: tan δ_in,out = b·tan d / (b ∓ (tw/2)·tan d). Inner = left when d > 0.
/// |d| is limited to the central angle whose inner wheel reaches max_wheel_angle, so both
/// wheels stay consistent (same turning centre) at the limit.
[[nodiscard]] WheelAngles ackermann_angles(const AckermannParams& p, double d) noexcept;

/// tan δ of the left and right wheel (same convention as ackermann_angles) with |d| limited
/// to d_max = max_central_angle(p), computed once at setup: one tan and no atan, for the
/// vehicle's per-stage use.
[[nodiscard]] WheelAngles ackermann_tangents(const AckermannParams& p, double d,
                                             double d_max) noexcept;

/// The same with t = tan(min(|d|, d_max)) given (a vehicle computes those of all its axles
/// by pairs, models/math/vector_math.hpp).
[[nodiscard]] WheelAngles ackermann_tangents_of(const AckermannParams& p, double d,
                                                double t) noexcept;

/// dδ/dd for the left and right wheel: RAVON eq. (2) divided by d, i.e. the rate relation
/// δ̇ = ḋ·ratio. Zero for the wheels beyond the central-angle limit of ackermann_angles.
[[nodiscard]] WheelAngles ackermann_rate_ratio(const AckermannParams& p, double d) noexcept;

/// RAVON eq. (2) evaluated literally as an angle (d times the ratio). Not a valid angle map:
/// kept to document and test the published formula's error (docs/models.md).
[[nodiscard]] WheelAngles ravon_eq2_as_angle(const AckermannParams& p, double d) noexcept;

/// Largest |d| for which the inner wheel stays within max_wheel_angle [rad].
[[nodiscard]] double max_central_angle(const AckermannParams& p) noexcept;

}  // namespace hil::models
