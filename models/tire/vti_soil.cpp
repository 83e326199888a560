#include "models/tire/vti_soil.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace hil::models {

namespace {

constexpr double kMinLoad = 1e-9;  // N below this is "no load" [N]; keeps N_s, N_c finite
constexpr double kMaxRelativeDeflection = 0.9;  // δ/h beyond this: tire bottomed out
constexpr double kInch = 0.0254;                // [m]
constexpr double kMinMobility = 1e-6;           // N_c floor: R = 12/N_c² stays finite
constexpr double kMaxMobility = 1e12;           // N_c ceiling: S_sp stays > 0
constexpr double kClayMinLinearSlip = 0.01;     // clay: chord below at least 1 % slip

// Sand constants (mavs-vti-model.md "Coarse-grained Soil"; Mason 2018, Williams 2019).
constexpr double kX = 0.66;
constexpr double kY0 = 4.71;
constexpr double kY1 = 1.72;

double relative_deflection(const SoilTire& t) noexcept {
  return std::clamp(t.delta / t.h, 0.0, kMaxRelativeDeflection);
}

/// Root of R² + 2·X_m·R − (a·N_s + b) = 0 that is positive, written without cancellation:
/// −X_m + sqrt(X_m² + q) = q / (X_m + sqrt(X_m² + q)).
double williams_resistance(double N_s) noexcept {
  const double X_m = 0.44 + 0.002287 * N_s;  // mavs-vti-model.md sand X_m, N read as N_s
  const double q = 0.0000457 * N_s + 0.08;   // mavs-vti-model.md sand R, under the root
  return q / (X_m + std::sqrt(X_m * X_m + q));
}

}  // namespace

SoilContact sand_contact(const SoilTire& t, double cone_index_pa, double N) noexcept {
  const double G = cone_index_pa / (3.47 * kInch);  // G = CI/3.47, CI in psi, G in psi/in → SI
  const double bd = t.b * t.d;
  const double dh = relative_deflection(t);
  // mavs-vti-model.md "Coarse-grained Soil": N_s = G·(bd)^1.5·δ / (N·h)  (dimensionless)
  const double N_s = std::min(G * bd * std::sqrt(bd) * dh / std::max(N, kMinLoad), kMaxMobility);
  SoilContact c;
  c.mobility = N_s;
  // T = X − X·Y/(N_s + 10 + Y), Y = 4.71 + 1.72/s  ⇔  T = gain·s/(s + knee)  (ruling 6)
  c.gain = kX * (N_s + 10.0) / (N_s + 10.0 + kY0);
  c.knee = kY1 / (N_s + 10.0 + kY0);
  // mavs-vti-model.md sand R = X_m − sqrt(...) sign-corrected, + 0.05·δ/h (ruling 6)
  c.resistance = williams_resistance(N_s) + 0.05 * dh;
  return c;
}

SoilContact clay_contact(const SoilTire& t, double cone_index_pa, double N) noexcept {
  const double dh = relative_deflection(t);
  const double bd_ratio = t.b / t.d;
  // mavs-vti-model.md "Fine-Grained Soil": N_c = CI·b·d / (N·(1−δ/h)^1.5·(1+b/d)^0.75)
  const double N_c = std::clamp(
      cone_index_pa * t.b * t.d /
          (std::max(N, kMinLoad) * std::pow(1.0 - dh, 1.5) * std::pow(1.0 + bd_ratio, 0.75)),
      kMinMobility, kMaxMobility);
  SoilContact c;
  c.clay = true;
  c.mobility = N_c;
  c.knee = 21.0 / std::pow(N_c, 2.5);         // S_sp = 21/N_c^2.5 (Fine-Grained Soil)
  c.gain = std::pow(1.0 + bd_ratio, 0.25);    // F = T·(1 + b/d)^0.25 − R (Fine-Grained Soil)
  c.resistance = 12.0 / (N_c * N_c) + 0.007;  // R = 12/N_c² + 0.007 (Fine-Grained Soil)
  // Ruling 7: the log law is −∞ at s = 0; below the tangent point e·S_sp (at least 1 %) use
  // the chord through the origin: continuous, increasing, T(0) = 0.
  c.linear_slip = std::max(std::numbers::e * c.knee, kClayMinLinearSlip);
  return c;
}

double soil_gross_traction(const SoilContact& c, double s) noexcept {
  const double a = std::min(std::abs(s), 1.0);
  double T = 0.0;
  if (!c.clay) {
    T = c.gain * a / (a + c.knee);  // ruling 6: Mason 2018 gross traction, rewritten
  } else {
    const auto log_law = [&c](double x) { return 0.5 * std::log10(x / c.knee); };  // T_clay
    T = a >= c.linear_slip ? c.gain * log_law(a)
                           : c.gain * log_law(c.linear_slip) * a / c.linear_slip;  // ruling 7
  }
  return std::copysign(T, s);
}

double soil_net_traction(const SoilContact& c, double s) noexcept {
  // mavs-vti-model.md: F∥ = T − R; clamped to [−1, 1] (ruling 7)
  return std::clamp(soil_gross_traction(c, s) - c.resistance, -1.0, 1.0);
}

}  // namespace hil::models
