#pragma once
// The fixed Gauss–Legendre rule of the Bekker–Wong rim integrals (models/tire/bekker_wong.hpp,
// bekker_flexible.hpp): kQuadraturePoints nodes and weights on [−1, 1], computed at compile
// time, and a helper that maps them onto an interval. Fixed work, no allocation, any thread.

#include <array>
#include <numbers>

namespace hil::models {

/// Gauss–Legendre nodes per region (front of θ_m, behind it, a flat section): 8.
inline constexpr int kQuadraturePoints = 8;

/// Gauss–Legendre nodes x and weights w on [−1, 1].
struct GaussLegendre {
  std::array<double, kQuadraturePoints> x{};
  std::array<double, kQuadraturePoints> w{};
};

namespace detail {

constexpr double taylor_cos(double x) {
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k < 40; ++k) {
    term *= -x * x / ((2.0 * k - 1.0) * (2.0 * k));
    sum += term;
  }
  return sum;
}

/// Newton on the Legendre polynomial P_N from the usual cosine guesses (Abramowitz & Stegun
/// 25.4.29 for the weights).
constexpr GaussLegendre gauss_legendre() {
  constexpr int N = kQuadraturePoints;
  GaussLegendre g;
  for (int i = 0; i < N; ++i) {
    double x = taylor_cos(std::numbers::pi * (i + 0.75) / (N + 0.5));
    double dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0;                // P_0
      double p1 = x;                  // P_1
      for (int k = 2; k <= N; ++k) {  // Bonnet: k·P_k = (2k − 1)·x·P_(k−1) − (k − 1)·P_(k−2)
        const double pk = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = pk;
      }
      dp = N * (x * p1 - p0) / (x * x - 1.0);  // P_N'(x)
      x -= p1 / dp;
    }
    g.x[i] = x;
    g.w[i] = 2.0 / ((1.0 - x * x) * dp * dp);  // A&S 25.4.29
  }
  return g;
}

}  // namespace detail

inline constexpr GaussLegendre kGauss = detail::gauss_legendre();

/// Calls f(t, weight) at the kQuadraturePoints nodes of [lo, hi] (nothing when hi ≤ lo), so that
/// Σ weight·g(t) ≈ ∫_lo^hi g(t) dt.
template <class F>
constexpr void gauss_legendre_nodes(double lo, double hi, F&& f) {
  if (!(hi > lo)) return;
  const double mid = 0.5 * (hi + lo);
  const double half = 0.5 * (hi - lo);
  for (int i = 0; i < kQuadraturePoints; ++i) f(mid + half * kGauss.x[i], half * kGauss.w[i]);
}

}  // namespace hil::models
