// Road loads (models/road_load.hpp): rolling resistance, grade force, RAVON eq. (1), and a
// coast-down integrated with rt_core's RK4 against the closed-form solution.

#include "models/road_load.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "models/aero.hpp"
#include "models/terrain_incline.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr double g = kStandardGravity;

TEST(RollingResistance, CoulombAboveVEpsFadingToZeroAtStandstill) {
  const RollingResistanceParams p{.c_rr = 0.015, .v_eps = 0.05};
  const double N = normal_load_on_grade(1500.0, g, 0.0);
  EXPECT_DOUBLE_EQ(rolling_resistance_force(p, N, 20.0), -0.015 * 1500.0 * g);
  EXPECT_DOUBLE_EQ(rolling_resistance_force(p, N, -3.0), 0.015 * 1500.0 * g);
  EXPECT_EQ(rolling_resistance_force(p, N, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(rolling_resistance_force(p, N, 0.025), -0.5 * 0.015 * 1500.0 * g);
}

TEST(GradeForce, TenPercentUphillAndEq1Agree) {
  const double m = 2600.0;
  const double theta = std::atan(0.10);  // 10 % grade rising ahead
  EXPECT_NEAR(grade_force(m, g, theta), -m * g * 0.1 / std::sqrt(1.01), 1e-9);
  EXPECT_NEAR(normal_load_on_grade(m, g, theta), m * g / std::sqrt(1.01), 1e-9);
  // RAVON eq. (1) with the incline terrain's normal: flat-road gravity + G' = inclined gravity.
  const InclineTerrain road({.grade_percent = 10.0});
  const Eigen::Vector3d G_prime = inclination_force(m, g, road.normal(0, 0));
  EXPECT_NEAR(G_prime.x(), grade_force(m, g, theta), 1e-9);
  EXPECT_EQ(G_prime.y(), 0.0);
  const Eigen::Vector3d total = Eigen::Vector3d(0, 0, -m * g) + G_prime;
  EXPECT_NEAR(total.z(), -normal_load_on_grade(m, g, theta), 1e-9);  // weight into the road
  EXPECT_NEAR(total.norm(), m * g, 1e-9);  // only the direction of gravity changes
  EXPECT_EQ(inclination_force(m, g, Eigen::Vector3d::UnitZ()), Eigen::Vector3d::Zero());
}

TEST(CoastDown, Rk4MatchesTheClosedFormWithin1e6Relative) {
  // m·dv/dt = −½ρC_dA·v² − C_rr·m·g  ⇒  v(t) = √(a/b)·tan(atan(v0·√(b/a)) − √(ab)·t)
  const double m = 1500.0;
  const AeroParams aero{.drag_coefficient = 0.32, .frontal_area = 2.2};
  const RollingResistanceParams rr{.c_rr = 0.012};
  const double a = rr.c_rr * g;
  const double b = 0.5 * aero.air_density * aero.drag_coefficient * aero.frontal_area / m;
  const double v0 = 30.0;
  auto f = [&](double, const double& v) {
    const double drag = aero_loads(aero, {v, 0, 0}, Eigen::Vector3d::Zero()).force.x();
    return (drag + rolling_resistance_force(rr, m * g, v)) / m;
  };
  const double t_stop = std::atan(v0 * std::sqrt(b / a)) / std::sqrt(a * b);
  ASSERT_GT(t_stop, 150.0);
  const double h = 0.01;
  double v = v0;
  for (int k = 1; k <= 15000; ++k) {  // 150 s, still well above v_eps
    v = rt::rk4_step(f, (k - 1) * h, v, h);
    if (k % 1000 == 0) {
      const double t = k * h;
      const double exact =
          std::sqrt(a / b) * std::tan(std::atan(v0 * std::sqrt(b / a)) - std::sqrt(a * b) * t);
      EXPECT_NEAR(v / exact, 1.0, 1e-6) << "t = " << t;
    }
  }
}

}  // namespace
}  // namespace hil::models
