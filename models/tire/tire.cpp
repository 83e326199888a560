#include "models/tire/tire.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "models/tire/vti.hpp"

namespace hil::models {

namespace {

constexpr double kHalfPi = std::numbers::pi / 2;
constexpr double kTinySlip = 1e-12;         // below: use the slope at s = 0 for the secant
constexpr double kTinyDenominator = 1e-12;  // patch-rate denominator that counts as zero

/// Rate of one patch deflection (ruling 3, TMeasy first-order contact dynamics, all terms per
/// newton of load): c·u + d·u̇ = −f·(v_s + u̇)/V  ⇒  u̇ = −(c·u·V + f·v_s)/(d·V + f), with v_s the
/// slip velocity, V the slip reference speed and f the secant stiffness F_ss/slip ≥ 0.
double patch_rate(double u, double v_s, double V, double f, double c, double d) noexcept {
  const double den = d * V + f;
  if (den <= kTinyDenominator) return d > 0.0 ? -c / d * u : 0.0;  // no grip: tread relaxes
  return -(c * u * V + f * v_s) / den;
}

}  // namespace

double normal_force(const TireParams& p, double delta, double delta_rate) noexcept {
  if (delta <= 0.0) return 0.0;  // ruling 9: no contact
  // mavs-vti-model.md Step 2: N = kδ − c·v↑, with dδ/dt = −v↑; ruling 9: never pulls
  return std::max(0.0, p.vertical_stiffness * delta + p.vertical_damping * delta_rate);
}

double effective_radius(const TireParams& p, double delta) noexcept {
  return 0.5 * p.diameter - std::max(delta, 0.0);  // mavs-vti-model.md Step 3
}

double longitudinal_slip(double v_par, double r_omega) noexcept {
  const double V = std::max(std::abs(v_par), std::abs(r_omega));  // ruling 2 denominator
  if (V == 0.0) return 0.0;
  const double direction = v_par != 0.0 ? std::copysign(1.0, v_par) : std::copysign(1.0, r_omega);
  // ruling 2: (rω − v∥)/max(|rω|, |v∥|), mirrored in reverse
  return std::clamp(direction * (r_omega - v_par) / V, -1.0, 1.0);
}

double slip_angle(double v_par, double v_perp) noexcept {
  const double a = std::abs(v_par);
  if (a == 0.0) return v_perp > 0.0 ? kHalfPi : (v_perp < 0.0 ? -kHalfPi : 0.0);
  return std::atan(v_perp / a);  // ruling 1: atan(v⊥/|v∥|), steered frame
}

TireOutputs evaluate_tire(const TireParams& p, const TireInputs& in,
                          const TirePatchState& patch) noexcept {
  TireOutputs out;
  out.N = normal_force(p, in.delta, in.delta_rate);
  out.r_eff = effective_radius(p, in.delta);
  const double r_omega = out.r_eff * in.omega;
  out.alpha = slip_angle(in.v_par, in.v_perp);
  const VtiCurve curve = make_vti_curve(p, in.surface, out.N, in.delta);

  // Longitudinal (ruling 3): signed slip s_x = (rω − v∥)/V_x, slip velocity v∥ − rω; the
  // kinematic slip of ruling 2 is s_x mirrored in reverse (= longitudinal_slip()).
  const double V_x = std::max(std::abs(in.v_par), std::abs(r_omega));
  const double s_x = V_x > 0.0 ? std::clamp((r_omega - in.v_par) / V_x, -1.0, 1.0) : 0.0;
  out.s = (in.v_par < 0.0 || (in.v_par == 0.0 && r_omega < 0.0)) ? -s_x : s_x;
  const double f_x =
      std::abs(s_x) > kTinySlip ? gross_traction(curve, s_x) / s_x : gross_slip_stiffness(curve);
  const double c_x = p.patch_stiffness_x_per_load;
  const double d_x = p.patch_damping_x_per_load;
  out.patch_rate.u_x = patch_rate(patch.u_x, in.v_par - r_omega, V_x, f_x, c_x, d_x);
  const double F_gross = out.N * (c_x * patch.u_x + d_x * out.patch_rate.u_x);
  // Soil motion resistance (or pavement rolling resistance) opposes travel; faded out below
  // resistance_fade_speed (ruling 3)
  const double travel = std::clamp(in.v_par / p.resistance_fade_speed, -1.0, 1.0);
  const double R = is_soil(curve.type) ? motion_resistance(curve) : p.rolling_resistance;
  const double F_resistance = -R * out.N * travel;

  // Lateral (rulings 3, 5): slip velocity v⊥, reference speed |v|, secant vs sin α.
  const double V_y = std::sqrt(in.v_par * in.v_par + in.v_perp * in.v_perp);
  const double sin_alpha = V_y > 0.0 ? std::abs(in.v_perp) / V_y : 0.0;  // sin|atan2(v⊥, |v∥|)|
  const double f_y = sin_alpha > kTinySlip
                         ? std::abs(lateral_coefficient(curve, out.alpha)) / sin_alpha
                         : curve.mu_lat / curve.gamma;  // Crolla slope at α = 0
  const double c_y = p.patch_stiffness_y_per_load;
  const double d_y = p.patch_damping_y_per_load;
  out.patch_rate.u_y = patch_rate(patch.u_y, in.v_perp, V_y, f_y, c_y, d_y);
  const double F_lateral = out.N * (c_y * patch.u_y + d_y * out.patch_rate.u_y);

  // ruling 5: combined slip limited by the friction ellipse
  const double k =
      friction_ellipse_scale(curve, out.N, {.x = F_gross + F_resistance, .y = F_lateral});
  out.Fx = k * (F_gross + F_resistance);
  out.Fx_traction = k * F_gross;
  out.Fy = k * F_lateral;
  return out;
}

double wheel_spin_acceleration(const TireParams& p, double Q, double r_eff, double Fx,
                               double omega) noexcept {
  // ruling 8 (mavs-vti-model.md Step 5 with r_eff for d/2): I·dω/dt = Q − r_eff·Fx − β·ω
  return (Q - r_eff * Fx - p.bearing_damping * omega) / p.spin_inertia;
}

}  // namespace hil::models
