#pragma once
// Friction brake between a wheel and its upright (docs/models.md "Wheel
// brake"): an elasto-plastic element — a torsional spring-damper (pads, caliper, hub
// compliance) in series with Coulomb friction of capacity T. While the spring-damper torque
// stays within ±T the brake sticks and the wheel sits on the spring: a held vehicle neither
// creeps nor chatters, and a braked wheel stops without reversing. Beyond ±T the pads slide
// and the torque is exactly T against the wind-up. The wind-up angle φ is a state the
// caller integrates with RK4 together with the wheel spin ω. Pure functions; RT-safe.

namespace hil::models {

/// Stiffness and damping of the stuck brake. Setup-phase helper lock_params() derives them
/// from the wheel's spin inertia so that the locked wheel rings at a chosen frequency.
struct WheelBrakeLock {
  double stiffness = 0.0;  ///< k [N·m/rad] (> 0)
  double damping = 0.0;    ///< c [N·m·s/rad] (> 0)
};

/// k = I·(2π·f)², c = 2·ζ·√(k·I): the locked wheel (inertia I [kg·m²]) rings at f [Hz] with
/// damping ratio ζ. RK4 stays stable and accurate while 2π·f·h ≤ 1.5 (h the RK4 step);
/// the vehicle's default 150 Hz, ζ = 1 gives 0.24 at 250 µs.
[[nodiscard]] WheelBrakeLock lock_params(double spin_inertia, double frequency_hz,
                                         double damping_ratio) noexcept;

struct WheelBrakeOutput {
  double torque = 0.0;    ///< brake torque on the wheel, about its spin axis [N·m]
  double phi_rate = 0.0;  ///< dφ/dt: integrate with the wheel spin [rad/s]
  bool sliding = false;   ///< the pads slip (|k·φ + c·ω| > T)
};

/// Brake of capacity `capacity` [N·m] (≥ 0; negative or non-finite counts as 0) on a wheel
/// spinning at ω [rad/s] with wind-up φ [rad]:
///   stuck   (|k·φ + c·ω| ≤ T): torque = −(k·φ + c·ω), dφ/dt = ω
///   sliding (otherwise):        torque = −T·sgn(k·φ + c·ω), dφ/dt = (T·sgn(·) − k·φ)/c
/// Continuous in all arguments; with T = 0 the wind-up relaxes with time constant c/k.
[[nodiscard]] WheelBrakeOutput wheel_brake(const WheelBrakeLock& lock, double capacity, double phi,
                                           double omega) noexcept;

}  // namespace hil::models
