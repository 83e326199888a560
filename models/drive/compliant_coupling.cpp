#include "models/drive/compliant_coupling.hpp"

#include <cmath>

namespace hil::models {

CouplingTorque compliant_coupling(const CompliantCouplingParams& p, double twist,
                                  double relative_speed, double capacity) noexcept {
  const double spring = p.stiffness * twist;
  const double stuck = spring + p.damping * relative_speed;  // T = k·φ + c·Δω
  if (std::abs(stuck) <= capacity) return {.torque = stuck, .twist_rate = relative_speed};
  // Slider slips at ±T_cap; the spring-damper carries exactly that: c·φ̇ = T − k·φ
  const double torque = std::copysign(capacity, stuck);
  return {.torque = torque, .twist_rate = (torque - spring) / p.damping};
}

}  // namespace hil::models
