#include "models/tire/bekker_contact.hpp"

#include <algorithm>
#include <cmath>

#include "models/tire/bekker_flexible.hpp"
#include "models/tire/bekker_wong.hpp"

namespace hil::models {

namespace {
constexpr double kStiffnessSlip = 1e-3;  // the chord for the slip stiffness at s = 0
constexpr double kTinySlip = 1e-12;      // as models/tire/tire_lanes.hpp
constexpr double kMaxMuLat = 2.0;        // c·A/N bounded where N is nearly 0
}  // namespace

BekkerContact bekker_contact(const TireParams& tire, const BekkerSoil& soil, double delta,
                             double delta_rate, double s, double friction_scale,
                             double ground_pressure) noexcept {
  BekkerContact out;
  if (!(delta > 0.0)) return out;
  BekkerSoil scaled = soil;
  const double scale = std::max(friction_scale, 0.0);
  scaled.c *= scale;                                   // ruling 5: the override scales μ
  scaled.phi = std::atan(std::tan(soil.phi) * scale);  // (strength c + σ·tan φ)
  const RigidWheel wheel{.r = 0.5 * tire.diameter, .b = tire.width};
  const FlexibleTire flexible{.r = wheel.r, .b = wheel.b, .p_g = ground_pressure};
  const double z = std::min(delta, wheel.r);
  const bool tiny = !(std::abs(s) > kTinySlip);
  // Rigid (p_g not set or above the ground pressure): exactly rigid_wheel_forces()
  const FlexibleWheelForces zero_contact = flexible_wheel_forces(scaled, flexible, z, 0.0);
  const FlexibleWheelForces s_contact =
      flexible_wheel_forces(scaled, flexible, z, tiny ? kStiffnessSlip : s);  // or the chord's end
  const WheelSoilForces& at_zero = zero_contact.forces;
  const WheelSoilForces& at_s = s_contact.forces;
  // Tire damper on the sinkage rate (the soil itself is taken as elastic: no rut memory)
  out.N = std::max(0.0, (tiny ? at_zero.W : at_s.W) + tire.vertical_damping * delta_rate);
  out.sinkage = tiny ? zero_contact.sinkage : s_contact.sinkage;
  if (!(out.N > 0.0)) return out;
  const double r = wheel.r;
  const double T0 = at_zero.torque / r;
  if (tiny) {
    out.slip_stiffness = (at_s.torque / r - T0) / (kStiffnessSlip * out.N);
    out.rolling = T0 / out.N;
    out.resistance = (T0 - at_zero.DP) / out.N;
  } else {
    const double Ts = at_s.torque / r;
    out.gross = (Ts - T0) / out.N;
    out.rolling = T0 / out.N;
    out.resistance = (Ts - at_s.DP) / out.N;
    out.slip_stiffness = out.gross / s;
  }
  const FlexibleWheelForces& contact = tiny ? zero_contact : s_contact;
  const WheelSoilForces& f = contact.forces;
  // Mohr–Coulomb strength of the contact area A = b·r·(sin θ1 − sin θ2) (θ2 = −c3·θ1; flexible:
  // b times the contact's length, arcs and flat)
  const double area = contact.flexible
                          ? wheel.b * contact.contact_length
                          : wheel.b * r * (std::sin(f.theta1) + std::sin(soil.c3 * f.theta1));
  out.mu_lat = std::min(std::tan(scaled.phi) + scaled.c * area / out.N, kMaxMuLat);
  out.mu_x_max =
      std::max(out.mu_lat, std::abs(out.gross) + std::abs(out.rolling) + std::abs(out.resistance));
  return out;
}

}  // namespace hil::models
