#pragma once
// Discrete PI controller with a saturated output and clamping anti-windup, as a digital drive
// controller runs it (docs/models.md "Electric drive", "The cascade controller"). One sample:
//
//   e[n]   = the sampled error
//   v[n]   = kp·e[n] + I[n]                          (I[n]: integrator before the update)
//   u[n]   = clamp(v[n], lo, hi)                      (held until the next sample: ZOH)
//   I[n+1] = I[n] + ki·T·e[n]   (forward Euler of ki/s, i.e. ki·T/(z − 1))
//            unless u is saturated and e[n] drives v further into that limit (conditional
//            integration, "clamping"); I[n+1] is then clamped to [lo, hi] as well, so that a
//            limit that moves (battery voltage, derating) never leaves the integrator beyond it.
//
// Pure function over a caller-owned state; RT-safe.

namespace hil::models {

struct PiGains {
  double kp = 0.0;  ///< proportional gain [output unit / error unit]
  double ki = 0.0;  ///< integral gain [output unit / (error unit·s)]
};

struct PiState {
  double integrator = 0.0;  ///< I: the integral part of the output [output unit]
};

/// One controller sample with sample time T [s] and output limits lo ≤ hi; returns u[n].
[[nodiscard]] double pi_step(const PiGains& gains, PiState& state, double error, double T,
                             double lo, double hi) noexcept;

}  // namespace hil::models
