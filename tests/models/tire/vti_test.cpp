// Crolla lateral traction and the friction ellipse (ruling 5); the surface dispatch.

#include "models/tire/vti.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace hil::models {
namespace {

constexpr double kN = 4000.0;
const TireParams kTire;

VtiCurve curve(Surface s, double friction_scale = 1.0) {
  return make_vti_curve(
      kTire, {.type = s, .cone_index_pa = 600e3, .friction_scale = friction_scale}, kN, 0.01);
}

TEST(Crolla, ValuesOpposeTheLateralSlipAndSaturateAtTheSurfacePeak) {
  const VtiCurve dry = curve(Surface::dry);
  // α = γ: 1 − e^−1 = 0.632121; μ_lat = D = 1; + α (sliding left) → force to the right.
  EXPECT_NEAR(lateral_coefficient(dry, 0.09), -0.632121, 1e-6);
  EXPECT_NEAR(lateral_coefficient(dry, -0.09), 0.632121, 1e-6);
  EXPECT_EQ(lateral_coefficient(dry, 0.0), 0.0);
  EXPECT_NEAR(lateral_coefficient(dry, 0.05), -(1.0 - std::exp(-0.05 / 0.09)), 1e-15);
  EXPECT_NEAR(lateral_coefficient(dry, 1.5), -1.0, 1e-6);
}

TEST(Crolla, IceDoesNotGripSidewaysLikeDryAsphalt) {
  EXPECT_NEAR(lateral_coefficient(curve(Surface::ice), 0.3), -0.1 * (1 - std::exp(-0.3 / 0.09)),
              1e-15);
  EXPECT_NEAR(lateral_coefficient(curve(Surface::wet), 0.3), -0.82 * (1 - std::exp(-0.3 / 0.09)),
              1e-15);
  EXPECT_NEAR(lateral_coefficient(curve(Surface::snow), 1.0), -0.3, 1e-4);
}

TEST(Crolla, GammaIsConfigurable) {
  TireParams tire;
  tire.crolla_gamma = 0.2;
  const VtiCurve c = make_vti_curve(tire, {.type = Surface::dry}, kN, 0.01);
  EXPECT_NEAR(lateral_coefficient(c, 0.2), -0.632121, 1e-6);
}

TEST(FrictionEllipse, PureSlipIsExactlyTheFormulasAndCombinedStaysInsideTheEllipse) {
  for (const Surface s :
       {Surface::dry, Surface::wet, Surface::snow, Surface::ice, Surface::sand, Surface::clay}) {
    const VtiCurve c = curve(s);
    for (int i = -20; i <= 20; ++i) {
      const double slip = 0.05 * i;
      const WheelForce f = steady_state_forces(c, kN, slip, 0.0);
      EXPECT_DOUBLE_EQ(f.x, kN * longitudinal_coefficient(c, slip)) << surface_name(s);
      EXPECT_EQ(f.y, 0.0);
    }
    // Pavement: pure lateral is exactly Crolla. Soil at s = 0 still has its motion
    // resistance −R·N, so the ellipse trims the side force a little: never above Crolla.
    for (int i = -30; i <= 30; ++i) {
      const double alpha = 0.05 * i;
      const WheelForce f = steady_state_forces(c, kN, 0.0, alpha);
      if (is_soil(s)) {
        EXPECT_LE(std::abs(f.y), std::abs(kN * lateral_coefficient(c, alpha)) + 1e-9);
        EXPECT_LT(f.x, 0.0);
      } else {
        EXPECT_DOUBLE_EQ(f.y, kN * lateral_coefficient(c, alpha)) << surface_name(s);
      }
    }
    for (int i = -10; i <= 10; ++i) {
      for (int j = -10; j <= 10; ++j) {
        const double slip = 0.1 * i;
        const double alpha = 0.1 * j;
        const WheelForce f = steady_state_forces(c, kN, slip, alpha);
        EXPECT_LE(std::hypot(f.x / (c.mu_x_max * kN), f.y / (c.mu_lat * kN)), 1.0 + 1e-12);
      }
    }
  }
}

TEST(FrictionEllipse, FullSlipBothWaysIsScaledOntoTheEllipseKeepingDirection) {
  const VtiCurve dry = curve(Surface::dry);
  const WheelForce f = friction_ellipse(dry, kN, {.x = 4000.0, .y = -4000.0});
  EXPECT_NEAR(std::hypot(f.x, f.y), 4000.0, 1e-9);  // μ = 1: |F| = μ·N
  EXPECT_NEAR(f.x, -f.y, 1e-9);
}

TEST(FrictionScale, MultipliesEveryFriction) {
  const VtiCurve half = curve(Surface::dry, 0.5);
  EXPECT_NEAR(longitudinal_coefficient(half, 0.1),
              0.5 * longitudinal_coefficient(curve(Surface::dry), 0.1), 1e-15);
  EXPECT_NEAR(lateral_coefficient(half, 0.2), 0.5 * lateral_coefficient(curve(Surface::dry), 0.2),
              1e-15);
  EXPECT_NEAR(gross_traction(curve(Surface::sand, 0.5), 0.3),
              0.5 * gross_traction(curve(Surface::sand), 0.3), 1e-15);
  EXPECT_EQ(motion_resistance(curve(Surface::sand, 0.5)), motion_resistance(curve(Surface::sand)));
}

TEST(SlipStiffness, IsTheSlopeOfTheGrossTractionAtZero) {
  for (const Surface s : {Surface::dry, Surface::ice, Surface::sand, Surface::clay}) {
    const VtiCurve c = curve(s);
    const double h = 1e-7;
    EXPECT_NEAR(gross_slip_stiffness(c), gross_traction(c, h) / h, 1e-4 * gross_slip_stiffness(c))
        << surface_name(s);
  }
  EXPECT_DOUBLE_EQ(gross_slip_stiffness(curve(Surface::dry)), 10.0 * 1.9 * 1.0);  // B·C·D
}

}  // namespace
}  // namespace hil::models
