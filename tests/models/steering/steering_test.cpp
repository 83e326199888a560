// Ackermann geometry (models/steering/steering.hpp) against the exact turning-centre condition and
// against RAVON eq. (2) used as the rate relation it is.

#include "models/steering/steering.hpp"

#include <cmath>
#include <numbers>

#include <Eigen/Core>

#include <gtest/gtest.h>

#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr AckermannParams kRavon{.b = 0.603, .track = 1.156, .max_wheel_angle = 1.2};

double cot(double a) { return 1.0 / std::tan(a); }

TEST(Ackermann, StraightAheadGivesZeroAngles) {
  const WheelAngles w = ackermann_angles(kRavon, 0.0);
  EXPECT_EQ(w.left, 0.0);
  EXPECT_EQ(w.right, 0.0);
  const WheelAngles r = ackermann_rate_ratio(kRavon, 0.0);
  EXPECT_DOUBLE_EQ(r.left, 1.0);  // dδ/dd = 1 at d = 0 for both wheels
  EXPECT_DOUBLE_EQ(r.right, 1.0);
}

TEST(Ackermann, AllWheelAxesMeetAtOneTurningCentreBothSigns) {
  for (int i = -60; i <= 60; ++i) {
    if (i == 0) continue;
    const double d = 0.01 * i;
    const WheelAngles w = ackermann_angles(kRavon, d);
    // Left turn: left wheel inner (larger), both positive; right turn mirrored.
    const double inner = d > 0 ? w.left : -w.right;
    const double outer = d > 0 ? w.right : -w.left;
    EXPECT_GT(inner, outer) << d;
    EXPECT_GT(outer, 0.0) << d;
    EXPECT_NEAR(cot(outer) - cot(inner), kRavon.track / kRavon.b, 1e-9) << d;
    // The central angle points at the same centre: cot d is the mean of the wheels' cot.
    EXPECT_NEAR(0.5 * (cot(outer) + cot(inner)), cot(std::abs(d)), 1e-9) << d;
  }
}

TEST(Ackermann, IsOddInD) {
  const WheelAngles l = ackermann_angles(kRavon, 0.25);
  const WheelAngles r = ackermann_angles(kRavon, -0.25);
  EXPECT_DOUBLE_EQ(l.left, -r.right);
  EXPECT_DOUBLE_EQ(l.right, -r.left);
}

TEST(Ackermann, IntegratingEq2RateFormReproducesExactAngles) {
  // RAVON eq. (2) / d = dδ/dd: integrate over d from 0 to 0.3 rad with RK4 in d.
  for (const double sign : {1.0, -1.0}) {
    Eigen::Vector2d delta(0.0, 0.0);  // left, right
    const int steps = 300;
    const double h = sign * 0.3 / steps;
    auto f = [](double d, const Eigen::Vector2d&) -> Eigen::Vector2d {
      const WheelAngles r = ackermann_rate_ratio(kRavon, d);
      return {r.left, r.right};
    };
    for (int i = 0; i < steps; ++i) delta = rt::rk4_step(f, i * h, delta, h);
    const WheelAngles exact = ackermann_angles(kRavon, sign * 0.3);
    EXPECT_NEAR(delta.x(), exact.left, 1e-6);
    EXPECT_NEAR(delta.y(), exact.right, 1e-6);
  }
}

TEST(Ackermann, Eq2AsAnAngleIsOffByAbout0p05RadAt0p3ForRavon) {
  const WheelAngles exact = ackermann_angles(kRavon, 0.3);
  const WheelAngles printed = ravon_eq2_as_angle(kRavon, 0.3);
  EXPECT_NEAR(exact.left, 0.414270, 1e-6);   // inner
  EXPECT_NEAR(exact.right, 0.234213, 1e-6);  // outer
  // Documented in docs/models.md: outer −0.0492 rad, inner +0.1423 rad with b = 0.603 m.
  EXPECT_NEAR(printed.right - exact.right, -0.0492, 1e-4);
  EXPECT_NEAR(printed.left - exact.left, 0.1423, 1e-4);
  // With b = 1.206 m (the wheelbase, as the paper's text names b) the inner error is 0.052.
  AckermannParams front_only = kRavon;
  front_only.b = 1.206;
  const double inner_error =
      ravon_eq2_as_angle(front_only, 0.3).left - ackermann_angles(front_only, 0.3).left;
  EXPECT_NEAR(inner_error, 0.0519, 1e-4);
}

TEST(Ackermann, SingularInnerWheelIsClampedToMaxWheelAngle) {
  // b − (tw/2)·tan d = 0 at d = atan(2b/tw) ≈ 0.806 rad: the exact inner angle is π/2.
  const double d_singular = std::atan(2.0 * kRavon.b / kRavon.track);
  for (const double d : {d_singular, d_singular + 0.2, 1.5, -d_singular}) {
    const WheelAngles w = ackermann_angles(kRavon, d);
    const double inner = d > 0 ? w.left : -w.right;
    const double outer = d > 0 ? w.right : -w.left;
    EXPECT_NEAR(inner, kRavon.max_wheel_angle, 1e-12) << d;
    EXPECT_TRUE(std::isfinite(outer));
    // Still a consistent geometry at the limit.
    EXPECT_NEAR(cot(outer) - cot(inner), kRavon.track / kRavon.b, 1e-9) << d;
    EXPECT_EQ(ackermann_rate_ratio(kRavon, d).left, 0.0) << d;
  }
  EXPECT_NEAR(ackermann_angles(kRavon, max_central_angle(kRavon)).left, 1.2, 1e-12);
}

TEST(Ackermann, MaxWheelAngleBeyondHalfPiStaysFinite) {
  AckermannParams p = kRavon;
  p.max_wheel_angle = 2.0;  // meaningless: limited just below π/2
  const WheelAngles w = ackermann_angles(p, 1.5);
  EXPECT_TRUE(std::isfinite(w.left));
  EXPECT_LT(w.left, std::numbers::pi / 2);
}

}  // namespace
}  // namespace hil::models
