#include "models/drive/drive_controller.hpp"

#include <algorithm>

namespace hil::models {

double cascade_controller_step(const CascadeControllerParams& p, CascadeControllerState& s,
                               const CascadeMeasurement& m, double T) noexcept {
  s.speed_ref = m.speed_ref;
  // Current limits: ±I_max, derated in the direction that draws battery power (motoring
  // forward needs i > 0 at ω_m ≥ 0, motoring backward i < 0 at ω_m ≤ 0).
  const double derated = p.current_limit * std::clamp(m.motoring_limit_fraction, 0.0, 1.0);
  const double i_hi = m.speed >= 0.0 ? derated : p.current_limit;
  const double i_lo = m.speed <= 0.0 ? -derated : -p.current_limit;
  // RAVON Fig. 8, outer loop: i_ref = PI(ω_ref − ω_m), limited to ±I_max
  s.current_ref = pi_step(p.speed, s.speed, m.speed_ref - m.speed, T, i_lo, i_hi);
  // RAVON Fig. 8, inner loop: uRef = PI(i_ref − i), limited to what the bridge can apply
  const double v_bus = std::max(m.bus_voltage, 0.0);
  s.voltage_ref = pi_step(p.current, s.current, s.current_ref - m.current, T, -v_bus, v_bus);
  // RAVON §3.7 PWM regulator: duty = uRef/V_battery, saturated to [−1, 1]
  s.duty = v_bus > 0.0 ? std::clamp(s.voltage_ref / v_bus, -1.0, 1.0) : 0.0;
  return s.duty;
}

}  // namespace hil::models
