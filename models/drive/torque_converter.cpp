#include "models/drive/torque_converter.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

namespace {
constexpr double kTinySpeed = 1e-8;  // Chrono: a speed ratio with a ~0 shaft speed is 0
}  // namespace

TorqueConverterTorques torque_converter(const TorqueConverterParams& p, double omega_pump,
                                        double omega_turbine) noexcept {
  if (omega_pump <= kTinySpeed) return {};  // Chrono: impeller turning backwards, no torque
  const double sr = std::abs(omega_turbine) < kTinySpeed
                        ? 0.0
                        : std::max(omega_turbine / omega_pump, 0.0);  // SR clamped to ≥ 0
  const double band = p.coupling_band;
  TorqueConverterTorques t{.speed_ratio = sr};
  if (sr <= 1.0 - band) {
    // Capacity-factor form: T_p = (ω_p/K(SR))², T_t = TR(SR)·T_p
    const double tp = std::pow(omega_pump / p.capacity_factor(sr), 2);
    t.pump = tp;
    t.turbine = p.torque_ratio(sr) * tp;
  } else if (sr >= 1.0 + band) {
    // Reverse flow (Chrono): K reflected about SR = 1, TR = 1, torque drives the engine
    const double tp = -std::pow(omega_pump / p.capacity_factor(2.0 - sr), 2);
    t.pump = tp;
    t.turbine = tp;
  } else {
    // Our blend across the coupling point: linear from forward (1 − band) to reverse (1 + band)
    const double t0 = std::pow(omega_pump / p.capacity_factor(1.0 - band), 2);
    const double s = (sr - (1.0 - band)) / (2.0 * band);
    t.pump = t0 * (1.0 - 2.0 * s);
    t.turbine = (1.0 - s) * p.torque_ratio(1.0 - band) * t0 - s * t0;
  }
  return t;
}

}  // namespace hil::models
