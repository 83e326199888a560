#include "models/battery/battery.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

namespace {

constexpr double kSecondsPerHour = 3600.0;
constexpr double kMinRemainingFraction = 1e-3;  // Q − it never below this fraction of Q

bool has_hysteresis_state(BatteryChemistry c) noexcept {
  return c != BatteryChemistry::lithium_ion;
}

}  // namespace

BatteryState battery_initial_state(const BatteryParams& p, double soc) noexcept {
  const double it = (1.0 - soc) * p.capacity;
  // Exp after a discharge of it from Exp = A: dExp/d(it) = −B·Exp ⇒ A·exp(−B·it)
  return {.extracted_charge = it,
          .filtered_current = 0.0,
          .exp_zone = has_hysteresis_state(p.chemistry) ? p.a * std::exp(-p.b * it) : 0.0};
}

double battery_source_voltage(const BatteryParams& p, const BatteryState& s) noexcept {
  const double Q = p.capacity;
  const double it = s.extracted_charge;
  const double i_star = s.filtered_current;
  const double remaining = std::max(Q - it, kMinRemainingFraction * Q);
  // Tremblay & Dessaint 2009: polarisation voltage K·Q/(Q − it)·it (it in A·h)
  const double polarisation_voltage = p.k * Q / remaining * (it / kSecondsPerHour);
  double polarisation_resistance = p.k * Q / remaining;  // discharge: K·Q/(Q − it)
  if (i_star < 0.0) {
    // Charge: K·Q/(it + 0.1·Q) (lead-acid, Li-ion), K·Q/(|it| + 0.1·Q) (NiMH/NiCd)
    const double shifted = p.chemistry == BatteryChemistry::nickel_metal_hydride
                               ? std::abs(it) + 0.1 * Q
                               : std::max(it + 0.1 * Q, kMinRemainingFraction * Q);
    polarisation_resistance = p.k * Q / shifted;
  }
  // Exponential zone: A·exp(−B·it) (Li-ion) or the hysteresis state Exp
  const double x = has_hysteresis_state(p.chemistry) ? s.exp_zone : p.a * std::exp(-p.b * it);
  const double e = p.e0 - polarisation_resistance * i_star - polarisation_voltage + x;
  return std::clamp(e, 0.0, 2.0 * p.e0);  // MATLAB Battery block: 0 ≤ E ≤ 2·E0
}

double battery_terminal_voltage(const BatteryParams& p, const BatteryState& s,
                                double current) noexcept {
  return battery_source_voltage(p, s) - p.r * current;  // RAVON Fig. 9 circuit: V = E − R·i
}

BatteryRates battery_rates(const BatteryParams& p, const BatteryState& s, double current) noexcept {
  BatteryRates r;
  r.extracted_charge = current;                                           // it = ∫i dt
  r.filtered_current = (current - s.filtered_current) / p.response_time;  // i* = i/(1 + T·s)
  if (has_hysteresis_state(p.chemistry)) {
    const double u = s.filtered_current < 0.0 ? 1.0 : 0.0;  // Sel: 1 charging, 0 discharging
    // Tremblay & Dessaint 2009: dExp/dt = B·|i|·(−Exp + A·u)
    r.exp_zone = p.b * std::abs(current) * (-s.exp_zone + p.a * u);
  }
  return r;
}

double battery_soc(const BatteryParams& p, double extracted_charge) noexcept {
  return 1.0 - extracted_charge / p.capacity;
}

}  // namespace hil::models
