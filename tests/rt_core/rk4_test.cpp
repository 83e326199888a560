#include "rt_core/rk4.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>

namespace hil::rt {
namespace {

using Vec2 = Eigen::Vector2d;

/// Harmonic oscillator x'' = −ω²x from x(0) = 1, v(0) = 0: x(t) = cos ωt.
double oscillator_error(double h, double t_end) {
  constexpr double omega = 2.0;
  const auto f = [](double, const Vec2& s) -> Vec2 { return {s[1], -omega * omega * s[0]}; };
  Vec2 s{1.0, 0.0};
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int i = 0; i < steps; ++i) s = rk4_step(f, i * h, s, h);
  return std::abs(s[0] - std::cos(omega * t_end));
}

TEST(Rk4, HalvingTheStepDividesTheErrorBySixteen) {
  for (const double h : {0.05, 0.025, 0.0125}) {
    const double ratio = oscillator_error(h, 5.0) / oscillator_error(h / 2, 5.0);
    EXPECT_NEAR(ratio, 16.0, 1.6) << "h = " << h;
  }
}

TEST(Rk4, TimeDependentScalarOdeMatchesItsSolution) {
  // y' = y·cos t, y(0) = 1 → y = exp(sin t); exercises the t + h/2 and t + h stages.
  const auto f = [](double t, const double& y) { return y * std::cos(t); };
  const auto error = [&](double h) {
    double y = 1.0;
    for (int i = 0; i < static_cast<int>(std::lround(3.0 / h)); ++i) y = rk4_step(f, i * h, y, h);
    return std::abs(y - std::exp(std::sin(3.0)));
  };
  EXPECT_NEAR(error(0.02) / error(0.01), 16.0, 1.6);
}

/// A state struct with just the operations RK4 needs.
struct Particle {
  double x = 0.0, v = 0.0;
  friend Particle operator+(const Particle& a, const Particle& b) { return {a.x + b.x, a.v + b.v}; }
  friend Particle operator*(double h, const Particle& a) { return {h * a.x, h * a.v}; }
};

TEST(Rk4, IntegratesAConstantAccelerationExactly) {
  // x'' = g is a polynomial of degree 2: RK4 is exact up to rounding.
  const auto f = [](double, const Particle& p) { return Particle{p.v, -9.81}; };
  Particle p;
  for (int i = 0; i < 100; ++i) p = rk4_step(f, i * 0.01, p, 0.01);
  EXPECT_NEAR(p.x, -0.5 * 9.81 * 1.0, 1e-12);
  EXPECT_NEAR(p.v, -9.81, 1e-12);
}

}  // namespace
}  // namespace hil::rt
