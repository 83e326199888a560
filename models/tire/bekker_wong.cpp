#include "models/tire/bekker_wong.hpp"

#include <algorithm>
#include <cmath>

#include "models/math/increasing_root.hpp"

namespace hil::models {

namespace {

/// Sums over the rim of the five integrands (per r·b, or r²·b for the torque).
struct RimSums {
  double sigma_cos = 0.0, tau_sin = 0.0, tau_cos = 0.0, sigma_sin = 0.0, tau = 0.0;
};

}  // namespace

double pressure_sinkage_modulus(const BekkerSoil& soil, double b) noexcept {
  if (soil.law == BekkerSoil::Law::reece) {
    // Reece (1965): p = (c·k'_c + γ_s·b·k'_φ)·(z/b)ⁿ  ⇒  k = (c·k'_c + γ_s·b·k'_φ)/bⁿ
    return (soil.c * soil.k_c_prime + soil.gamma_s * b * soil.k_phi_prime) / std::pow(b, soil.n);
  }
  return soil.k_c / b + soil.k_phi;  // Bekker (1956): p = (k_c/b + k_φ)·zⁿ
}

double plate_pressure(const BekkerSoil& soil, double b, double z) noexcept {
  return pressure_sinkage_modulus(soil, b) * std::pow(std::max(z, 0.0), soil.n);
}

double plate_sinkage(const BekkerSoil& soil, double b, double p) noexcept {
  return std::pow(std::max(p, 0.0) / pressure_sinkage_modulus(soil, b), 1.0 / soil.n);
}

double janosi_hanamoto(const BekkerSoil& soil, double sigma, double j) noexcept {
  const double tau_max = soil.c + sigma * std::tan(soil.phi);  // Mohr–Coulomb strength
  if (j == 0.0) return 0.0;
  if (!(soil.K > 0.0)) return std::copysign(tau_max, j);
  // Janosi & Hanamoto (1961): τ = (c + σ·tan φ)·(1 − e^(−j/K))
  return std::copysign(tau_max * (1.0 - std::exp(-std::abs(j) / soil.K)), j);
}

WheelSoilForces rigid_wheel_forces(const BekkerSoil& soil, const RigidWheel& wheel, double z,
                                   double s) noexcept {
  const double r = wheel.r;
  const double b = wheel.b;
  if (!(z > 0.0) || !soil.valid() || !(r > 0.0) || !(b > 0.0)) return {};
  z = std::min(z, r);
  WheelSoilForces out;
  const double cos1 = 1.0 - z / r;
  const double theta1 = 2.0 * std::asin(std::sqrt(0.5 * z / r));  // cos θ1 = 1 − z/r
  const double sin1 = std::sin(theta1);
  const double theta2 = -soil.c3 * theta1;  // exit angle (Wong–Reece: 0)
  // Wong & Reece (1967): θ_m = (c1 + c2·s)·θ1, kept between the exit and the entry
  const double theta_m = std::clamp((soil.c1 + soil.c2 * s) * theta1, theta2, theta1);
  const double k_rn = pressure_sinkage_modulus(soil, b) * std::pow(r, soil.n);
  // v/(rω): 1 − s driving, 1/(1 + s) braking (slip of models/tire/tire.hpp)
  const double rho = s >= 0.0 ? 1.0 - std::min(s, 1.0) : 1.0 / std::max(1.0 + s, 1e-9);

  RimSums sum;
  const auto add = [&](double theta, double weight, double cos_minus_cos1) {
    // Wong & Reece (1967), Bekker's law along the rim: σ(θ) = k·rⁿ·(cos θ − cos θ1)ⁿ
    const double sigma = k_rn * std::pow(std::max(cos_minus_cos1, 0.0), soil.n);
    const double sin_t = std::sin(theta);
    const double cos_t = std::cos(theta);
    // Shear displacement (Wong & Reece 1967): j = r·[(θ1 − θ) − (v/rω)·(sin θ1 − sin θ)]
    const double j = r * ((theta1 - theta) - rho * (sin1 - sin_t));
    const double tau = janosi_hanamoto(soil, sigma, j);
    sum.sigma_cos += weight * sigma * cos_t;
    sum.tau_sin += weight * tau * sin_t;
    sum.tau_cos += weight * tau * cos_t;
    sum.sigma_sin += weight * sigma * sin_t;
    sum.tau += weight * tau;
  };
  // Front region θ_m ≤ θ ≤ θ1: σ from the actual angle
  if (theta1 > theta_m) {
    const double mid = 0.5 * (theta1 + theta_m);
    const double half = 0.5 * (theta1 - theta_m);
    for (int i = 0; i < kQuadraturePoints; ++i) {
      const double theta = mid + half * kGauss.x[i];
      add(theta, half * kGauss.w[i], std::cos(theta) - cos1);
    }
  }
  // Rear region θ2 ≤ θ < θ_m: the front's law at the equivalent angle
  // θ* = θ1 − (θ − θ2)/(θ_m − θ2)·(θ1 − θ_m) (Wong & Reece 1967)
  if (theta_m > theta2) {
    const double mid = 0.5 * (theta_m + theta2);
    const double half = 0.5 * (theta_m - theta2);
    for (int i = 0; i < kQuadraturePoints; ++i) {
      const double theta = mid + half * kGauss.x[i];
      const double equivalent = theta1 - (theta - theta2) / (theta_m - theta2) * (theta1 - theta_m);
      add(theta, half * kGauss.w[i], std::cos(equivalent) - cos1);
    }
  }
  // Wong & Reece (1967): W = r·b·∫(σ cos θ + τ sin θ) dθ, DP = r·b·∫(τ cos θ − σ sin θ) dθ,
  // T = r²·b·∫τ dθ
  out.W = r * b * (sum.sigma_cos + sum.tau_sin);
  out.thrust = r * b * sum.tau_cos;
  out.resistance = r * b * sum.sigma_sin;
  out.DP = out.thrust - out.resistance;
  out.torque = r * r * b * sum.tau;
  out.theta1 = theta1;
  out.theta_m = theta_m;
  return out;
}

double rigid_wheel_sinkage(const BekkerSoil& soil, const RigidWheel& wheel, double W,
                           double s) noexcept {
  if (!(W > 0.0) || !soil.valid() || !(wheel.r > 0.0)) return 0.0;
  return increasing_root([&](double z) { return rigid_wheel_forces(soil, wheel, z, s).W; }, W,
                         wheel.r, kMaxSinkageIterations);
}

}  // namespace hil::models
