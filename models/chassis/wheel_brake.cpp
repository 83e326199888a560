#include "models/chassis/wheel_brake.hpp"

#include <cmath>
#include <numbers>

namespace hil::models {

WheelBrakeLock lock_params(double spin_inertia, double frequency_hz,
                           double damping_ratio) noexcept {
  const double wn = 2.0 * std::numbers::pi * frequency_hz;
  const double k = spin_inertia * wn * wn;
  return {.stiffness = k, .damping = 2.0 * damping_ratio * std::sqrt(k * spin_inertia)};
}

WheelBrakeOutput wheel_brake(const WheelBrakeLock& lock, double capacity, double phi,
                             double omega) noexcept {
  const double T = std::isfinite(capacity) && capacity > 0.0 ? capacity : 0.0;
  // Elasto-plastic friction (Dahl's spring in series with Coulomb sliding): stuck torque
  const double tau = lock.stiffness * phi + lock.damping * omega;
  if (std::abs(tau) <= T) return {.torque = -tau, .phi_rate = omega, .sliding = false};
  const double limit = std::copysign(T, tau);
  // Sliding: the damper carries what the friction passes, k·φ + c·φ̇ = ±T
  return {
      .torque = -limit, .phi_rate = (limit - lock.stiffness * phi) / lock.damping, .sliding = true};
}

}  // namespace hil::models
