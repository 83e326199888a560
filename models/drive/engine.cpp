#include "models/drive/engine.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

double engine_throttle(const EngineParams& p, double throttle, double omega) noexcept {
  const double driver = std::isnan(throttle) ? 0.0 : std::clamp(throttle, 0.0, 1.0);
  const double governor = std::clamp(p.idle_gain * (p.idle_speed - omega), 0.0, 1.0);
  const double cut = std::clamp((p.rev_limit - omega) / p.rev_limit_band, 0.0, 1.0);
  const double demanded = std::max(driver, governor);
  return demanded * cut;  // AutoSim §4.4.5: rpm held between the minimum and maximum limits
}

double engine_torque(const EngineParams& p, double throttle, double omega) noexcept {
  // AutoSim §4.4.4: torque from the torque–rpm curve, scaled by the throttle; + losses
  return engine_throttle(p, throttle, omega) * p.full_load_torque(omega) + p.loss_torque(omega);
}

}  // namespace hil::models
