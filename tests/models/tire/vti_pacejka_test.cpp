// Pacejka magic formula per surface (ruling 4): values, oddness, peak location.

#include "models/tire/vti_pacejka.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace hil::models {
namespace {

struct Row {
  Surface surface;
  double B, C, D, E;
};
// Ruling 4: the seed's table with ice B = 4 (Short et al. 2004, MAVS's code).
constexpr Row kTable[] = {{Surface::dry, 10.0, 1.9, 1.0, 0.97},
                          {Surface::wet, 12.0, 2.3, 0.82, 1.0},
                          {Surface::snow, 5.0, 2.0, 0.3, 1.0},
                          {Surface::ice, 4.0, 2.0, 0.1, 1.0}};

double reference(const Row& r, double s) {  // written out again, independently of the model
  const double x = r.B * s;
  return r.D * std::sin(r.C * std::atan(x - r.E * (x - std::atan(x))));
}

TEST(Pacejka, CoefficientsAreTheTableWithIceBEqualTo4) {
  for (const Row& r : kTable) {
    const PacejkaCoefficients p = pacejka_coefficients(r.surface);
    EXPECT_EQ(p.B, r.B) << surface_name(r.surface);
    EXPECT_EQ(p.C, r.C);
    EXPECT_EQ(p.D, r.D);
    EXPECT_EQ(p.E, r.E);
  }
}

TEST(Pacejka, ValuesMatchTheFormulaAtTheReferenceSlips) {
  for (const Row& r : kTable) {
    const PacejkaCoefficients p = pacejka_coefficients(r.surface);
    for (const double s : {-0.1, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0}) {
      EXPECT_NEAR(magic_formula(p, s), reference(r, s), 1e-12) << surface_name(r.surface) << s;
    }
  }
  // By hand: dry, s = 0.1: Bs = 1, atan 1 = 0.785398; 1 − 0.97·(1 − 0.785398) = 0.791836;
  // atan = 0.669743; ·1.9 = 1.272512; sin = 0.955842.
  EXPECT_NEAR(magic_formula(pacejka_coefficients(Surface::dry), 0.1), 0.955842, 1e-6);
  // Ice, s = 0.1: Bs = 0.4, E = 1 leaves atan(atan 0.4) = atan(0.380506) = 0.363589;
  // ·2 = 0.727179 → sin = 0.664765 → ·D = 0.0664765. The table's B = 10 would give 0.0972.
  EXPECT_NEAR(magic_formula(pacejka_coefficients(Surface::ice), 0.1), 0.0664765, 1e-6);
}

TEST(Pacejka, IsOddAndBoundedByD) {
  for (const Row& r : kTable) {
    const PacejkaCoefficients p = pacejka_coefficients(r.surface);
    for (int i = -100; i <= 100; ++i) {
      const double s = 0.01 * i;
      EXPECT_NEAR(magic_formula(p, -s), -magic_formula(p, s), 1e-15);
      EXPECT_LE(std::abs(magic_formula(p, s)), r.D + 1e-15);
      if (s > 0.0) {
        EXPECT_GT(magic_formula(p, s), 0.0);  // never pulls against the slip
      }
    }
  }
}

/// B·s_peak solves C·atan(x − E·(x − atan x)) = π/2, i.e. x − E·(x − atan x) = tan(π/(2C)).
double analytic_peak_slip(const Row& r) {
  const double target = std::tan(std::numbers::pi / (2.0 * r.C));
  double lo = 0.0;
  double hi = 100.0;  // the left side increases with x: bisection
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (mid - r.E * (mid - std::atan(mid)) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi) / r.B;
}

TEST(Pacejka, PeakIsWhereTheAnalyticSolutionSaysAndEqualsD) {
  // Snow and ice (C = 2, E = 1): atan(atan x) = π/4 ⇒ x = tan 1 = 1.5574.
  const double expected[] = {0.0, 0.0, std::tan(1.0) / 5.0, std::tan(1.0) / 4.0};
  int i = 0;
  for (const Row& r : kTable) {
    const PacejkaCoefficients p = pacejka_coefficients(r.surface);
    double best_s = 0.0;
    double best = -1.0;
    for (int k = 0; k <= 100'000; ++k) {
      const double s = 1e-5 * k;
      if (magic_formula(p, s) > best) {
        best = magic_formula(p, s);
        best_s = s;
      }
    }
    const double peak = analytic_peak_slip(r);
    EXPECT_NEAR(best_s, peak, 2e-5) << surface_name(r.surface);
    EXPECT_NEAR(best, r.D, 1e-9);
    if (expected[i] > 0.0) {
      EXPECT_NEAR(peak, expected[i], 1e-9);
    }
    ++i;
  }
  // Dry peaks late and flat (E = 0.97) at 18 % slip, wet sharply at 8.9 %.
  EXPECT_NEAR(analytic_peak_slip(kTable[0]), 0.1802, 0.001);
  EXPECT_NEAR(analytic_peak_slip(kTable[1]), 0.0888, 0.001);
}

}  // namespace
}  // namespace hil::models
