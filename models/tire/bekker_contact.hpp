#pragma once
// One tire on a soft soil by Bekker–Wong (models/tire/bekker_wong.hpp), in the terms of the
// tire model's contact (models/tire/tire_lanes.hpp): what evaluate_tires() uses instead of the
// VTI on a surface that names a soil (docs/models.md "Soft soil (Bekker–Wong)").
//
// The wheel is the rigid wheel of Wong–Reece (or, given an inflation plus carcass pressure,
// Wong's flexible tire: models/tire/bekker_flexible.hpp), radius d/2 and width b: the tire's
// deflection δ below the ground surface is its sinkage z (the soil is the spring; the tire's
// damper damps it), it rolls at radius d/2. At slip s it gets the soil's vertical force W(z, s),
// drawbar pull DP(s) and torque T(s); the longitudinal force goes through the tire's contact patch
// (ruling 3) as three parts: a gross traction (T(s) − T(0))/r that is 0 at s = 0 (the patch's
// curve), the soil's shear T(0)/r at s = 0 (forward on the hub and against the spin: the
// torque needed to roll), and the resistance T(s)/r − DP(s) (on the hub, against travel);
// in steady state the hub gets DP(s) and the spin T(s). Lateral: Crolla's law (ruling 5) with the
// Mohr–Coulomb strength of the contact, μ_lat = tan φ + c·A/N, A = b·r·(sin θ1 − sin θ2). Pure
// function: any thread, noexcept, no allocation, two rim integrations per call.

#include "models/terrain/bekker_soil.hpp"
#include "models/tire/tire_params.hpp"

namespace hil::models {

/// The soil's contact in coefficients per newton of load, direction of travel, slip s ≥ 0
/// driving (mirrored by the caller in reverse).
struct BekkerContact {
  double N = 0.0;               ///< normal force max(0, W(z, s) + c·dδ/dt) [N]
  double sinkage = 0.0;         ///< the soil's sinkage z [m] (flexible: z0 < δ)
  double gross = 0.0;           ///< (T(s) − T(0))/(r·N) [-]
  double slip_stiffness = 0.0;  ///< d(gross)/ds at s = 0 (chord over 1e-3) [-]
  double rolling = 0.0;         ///< T(0)/(r·N): the spin's resistance at s = 0 [-]
  double resistance = 0.0;      ///< (T(s)/r − DP(s))/N: against travel on the hub [-]
  double mu_lat = 0.0;          ///< Crolla peak: tan φ + c·A/N [-]
  double mu_x_max = 0.0;        ///< friction ellipse's x semi-axis: never below the pull [-]
};

/// The contact of `tire` sunk δ into `soil` at slip s (+ driving), dδ/dt = delta_rate;
/// friction_scale multiplies c and tan φ (the per-wheel friction override). ground_pressure:
/// the tire's inflation plus carcass pressure p_g [Pa] for Wong's flexible tire
/// (models/tire/bekker_flexible.hpp); 0, the default: the rigid wheel. Flexible, δ is the
/// undeformed circle's penetration and `sinkage` the soil's, z0.
[[nodiscard]] BekkerContact bekker_contact(const TireParams& tire, const BekkerSoil& soil,
                                           double delta, double delta_rate, double s,
                                           double friction_scale,
                                           double ground_pressure = 0.0) noexcept;

}  // namespace hil::models
