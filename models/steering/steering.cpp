#include "models/steering/steering.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "models/math/vector_math.hpp"

namespace hil::models {
namespace {

/// max_wheel_angle limited to (0, π/2): at π/2 the turning centre sits on the inner wheel.
double wheel_limit(const AckermannParams& p) noexcept {
  constexpr double kHalfPiMargin = 1e-6;
  return std::clamp(p.max_wheel_angle, kHalfPiMargin, std::numbers::pi / 2 - kHalfPiMargin);
}

struct InnerOuter {
  double inner = 0.0;
  double outer = 0.0;
};

/// Maps inner/outer magnitudes to left/right by the sign of d (d > 0: left turn, left inner).
WheelAngles to_left_right(double d, InnerOuter io) noexcept {
  if (d >= 0.0) return {.left = io.inner, .right = io.outer};
  return {.left = -io.outer, .right = -io.inner};
}

}  // namespace

double max_central_angle(const AckermannParams& p) noexcept {
  // Inverse of the inner-wheel map at δ_in = δ_max: tan d = T·b / (b + T·tw/2), T = tan δ_max.
  const double T = std::tan(wheel_limit(p));
  return std::atan(T * p.b / (p.b + T * 0.5 * p.track));
}

WheelAngles ackermann_tangents(const AckermannParams& p, double d, double d_max) noexcept {
  return ackermann_tangents_of(p, d, vmath::tan(std::min(std::abs(d), d_max)));
}

WheelAngles ackermann_tangents_of(const AckermannParams& p, double d, double t) noexcept {
  const double h = 0.5 * p.track;
  // RAVON §3.3 (exact geometry behind eq. (2)): tan δ_1,2 = b·tan d / (b ∓ (tw/2)·tan d);
  // b − h·t > 0 because |d| ≤ max_central_angle
  const InnerOuter io{.inner = p.b * t / (p.b - h * t), .outer = p.b * t / (p.b + h * t)};
  return to_left_right(d, io);
}

WheelAngles ackermann_angles(const AckermannParams& p, double d) noexcept {
  const WheelAngles t = ackermann_tangents(p, d, max_central_angle(p));
  return {.left = std::atan(t.left), .right = std::atan(t.right)};
}

WheelAngles ackermann_rate_ratio(const AckermannParams& p, double d) noexcept {
  const double a = std::abs(d);
  if (a > max_central_angle(p)) return {};  // saturated: the wheels no longer follow d
  const double t = std::tan(a);
  const double b = p.b;
  const double tw = p.track;
  // RAVON §3.3 eq. (2) / d: dδ_1,2/dd = 4b²(1 + tan²d) / (4b(b ∓ tw·tan d + b·tan²d) + tw²tan²d)
  const double num = 4.0 * b * b * (1.0 + t * t);
  const double inner = num / (4.0 * b * (b - tw * t + b * t * t) + tw * tw * t * t);
  const double outer = num / (4.0 * b * (b + tw * t + b * t * t) + tw * tw * t * t);
  // The ratio is even in d: for a right turn the right wheel is the inner one.
  if (d >= 0.0) return {.left = inner, .right = outer};
  return {.left = outer, .right = inner};
}

WheelAngles ravon_eq2_as_angle(const AckermannParams& p, double d) noexcept {
  // RAVON §3.3 eq. (2) as printed: d_1,2 = d · (ratio); exact only as a rate relation.
  const WheelAngles r = ackermann_rate_ratio(p, d);
  return {.left = d * r.left, .right = d * r.right};
}

}  // namespace hil::models
