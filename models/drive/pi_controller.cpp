#include "models/drive/pi_controller.hpp"

#include <algorithm>

namespace hil::models {

double pi_step(const PiGains& gains, PiState& state, double error, double T, double lo,
               double hi) noexcept {
  const double v = gains.kp * error + state.integrator;  // v[n] = kp·e[n] + I[n]
  const double u = std::clamp(v, lo, hi);                // u[n], held (ZOH)
  // Clamping anti-windup: integrate unless saturated with the error pushing outwards.
  const bool pushing_out = (v > hi && error > 0.0) || (v < lo && error < 0.0);
  if (!pushing_out) state.integrator += gains.ki * T * error;  // I[n+1] = I[n] + ki·T·e[n]
  state.integrator = std::clamp(state.integrator, lo, hi);
  return u;
}

}  // namespace hil::models
