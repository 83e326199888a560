#pragma once
// A pneumatic tire on soft soil after Wong (Theory of Ground Vehicles, the flexible tire;
// docs/models.md "Soft soil (Bekker–Wong)", "The flexible tire"): the tire behaves as the rigid
// wheel of models/tire/bekker_wong.hpp while its inflation plus carcass pressure p_g is at least
// the ground pressure under the rigid wheel's lowest point, k·zⁿ; on a firmer soil (or at a
// lower pressure) it flattens. The flattened section then carries the uniform pressure p_g and
// sinks z0 = (p_g/k)^(1/n) — the plate law, whatever the load — and the rest of the penetration
// is the tire's deflection δ_t = z − z0. The contact is the undeformed circle's front arc from
// the entry angle θ1 down to the flat (cos θ_f = 1 − δ_t/r), the flat of length l = 2·r·sin θ_f
// at depth z0, and, for c3 > 0, a rear arc of the same kind behind it (the soil's rebound; none
// for Wong–Reece's c3 = 0). The vertical force of the flat is p_g·b·l, its shear displacement
// grows linearly along it, j = j_f + (1 − v/(rω))·u, and the motion resistance is the
// compaction to z0: b·k·z0^(n+1)/(n+1) = b·p_g^((n+1)/n)/((n+1)·k^(1/n)) (Wong).
//
// RT: noexcept, allocation-free, bounded: three fixed Gauss–Legendre regions (front arc, flat,
// rear arc) of kQuadraturePoints each; the load solve at most kMaxSinkageIterations steps. Any
// thread.

#include "models/terrain/bekker_soil.hpp"
#include "models/tire/bekker_wong.hpp"

namespace hil::models {

/// A pneumatic tire on soft soil: undeformed radius r, section width b [m], and the ground
/// pressure p_g of its flattened section — inflation plus carcass pressure [Pa]. p_g ≤ 0 (not
/// set) or p_g ≥ the rigid wheel's ground pressure: the tire is the rigid wheel.
struct FlexibleTire {
  double r = 0.0;
  double b = 0.0;
  double p_g = 0.0;
};

/// The resultants of a flexible tire and its contact geometry.
struct FlexibleWheelForces {
  WheelSoilForces forces;       ///< W, DP, thrust, resistance, torque, θ1 (θ_m: 0 when flexible)
  double sinkage = 0.0;         ///< the soil's sinkage under the tire: z (rigid) or z0 [m]
  double deflection = 0.0;      ///< the tire's deflection δ_t = z − z0 (0 when rigid) [m]
  double flat_length = 0.0;     ///< l: length of the flattened section [m]
  double contact_length = 0.0;  ///< horizontal length of the whole contact [m]
  bool flexible = false;        ///< true: the flattened section is there
};

/// The ground pressure under the lowest point of a rigid wheel of width b sunk to z [Pa]:
/// k·zⁿ (Bekker's law) — Wong's criterion, compared with the tire's p_g.
[[nodiscard]] double rigid_wheel_ground_pressure(const BekkerSoil& soil, double b,
                                                 double z) noexcept;

/// The stresses on `tire` whose undeformed circle penetrates z ≥ 0 below the soil surface at
/// slip s (+ driving), integrated as in models/tire/bekker_wong.hpp. Rigid mode returns
/// rigid_wheel_forces() exactly. z is clamped to r; all 0 for z ≤ 0.
[[nodiscard]] FlexibleWheelForces flexible_wheel_forces(const BekkerSoil& soil,
                                                        const FlexibleTire& tire, double z,
                                                        double s) noexcept;

/// The penetration z at which `tire` at slip s carries the load W ≥ 0 [m] (bracketed
/// Illinois regula falsi on [0, r] as rigid_wheel_sinkage()); r when even z = r does not carry
/// it. W(z) jumps up where the tire turns flexible: a load inside the jump returns that z.
[[nodiscard]] double flexible_wheel_penetration(const BekkerSoil& soil, const FlexibleTire& tire,
                                                double W, double s) noexcept;

}  // namespace hil::models
