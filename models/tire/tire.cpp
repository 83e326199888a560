#include "models/tire/tire.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "models/math/vector_math.hpp"
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
  return vmath::atan(v_perp / a);  // ruling 1: atan(v⊥/|v∥|), steered frame
}

namespace {

/// One tire up to its transcendentals (normal force, radius, curve, slips): the first half
/// of evaluate_tire().
struct TireSlip {
  TireOutputs out;  ///< N, r_eff and s so far
  VtiCurve curve;
  double r_omega = 0.0;
  double V_x = 0.0;    ///< longitudinal slip reference speed
  double s_x = 0.0;    ///< signed slip (ruling 3)
  double V_y = 0.0;    ///< lateral slip reference speed |v|
  double tan_a = 0.0;  ///< v⊥/|v∥|: α = atan(tan_a) unless v∥ = 0 (slip_angle())
};

TireSlip tire_slip(const TireParams& p, const TireInputs& in) noexcept {
  TireSlip t;
  t.out.N = normal_force(p, in.delta, in.delta_rate);
  t.out.r_eff = effective_radius(p, in.delta);
  t.r_omega = t.out.r_eff * in.omega;
  t.curve = make_vti_curve(p, in.surface, t.out.N, in.delta);
  // Longitudinal (ruling 3): signed slip s_x = (rω − v∥)/V_x, slip velocity v∥ − rω; the
  // kinematic slip of ruling 2 is s_x mirrored in reverse (= longitudinal_slip()).
  t.V_x = std::max(std::abs(in.v_par), std::abs(t.r_omega));
  t.s_x = t.V_x > 0.0 ? std::clamp((t.r_omega - in.v_par) / t.V_x, -1.0, 1.0) : 0.0;
  t.out.s = (in.v_par < 0.0 || (in.v_par == 0.0 && t.r_omega < 0.0)) ? -t.s_x : t.s_x;
  t.V_y = std::sqrt(in.v_par * in.v_par + in.v_perp * in.v_perp);
  const double a = std::abs(in.v_par);
  t.tan_a = a > 0.0 ? in.v_perp / a : 0.0;
  return t;
}

/// The slip angle from atan(tan_a) (ruling 1; slip_angle() where v∥ = 0).
double slip_angle_of(const TireInputs& in, double atan_tan_a) noexcept {
  return std::abs(in.v_par) > 0.0 ? atan_tan_a : slip_angle(in.v_par, in.v_perp);
}

/// The second half: the slip angle α, the gross traction at s_x (Pacejka: the magic formula
/// `mf_s_x`; soils: soil_gross_traction()) and Crolla's e^(−|α|/γ) given, the forces and
/// patch rates.
TireOutputs tire_forces(const TireParams& p, const TireInputs& in, const TirePatchState& patch,
                        const TireSlip& t, double alpha, double mf_s_x, double crolla) noexcept {
  TireOutputs out = t.out;
  const VtiCurve& curve = t.curve;
  out.alpha = alpha;
  const double gross = is_soil(curve.type) ? gross_traction(curve, t.s_x) : mf_s_x;
  const double f_x = std::abs(t.s_x) > kTinySlip ? gross / t.s_x : gross_slip_stiffness(curve);
  const double c_x = p.patch_stiffness_x_per_load;
  const double d_x = p.patch_damping_x_per_load;
  out.patch_rate.u_x = patch_rate(patch.u_x, in.v_par - t.r_omega, t.V_x, f_x, c_x, d_x);
  const double F_gross = out.N * (c_x * patch.u_x + d_x * out.patch_rate.u_x);
  // Soil motion resistance (or pavement rolling resistance) opposes travel; faded out below
  // resistance_fade_speed (ruling 3)
  const double travel = std::clamp(in.v_par / p.resistance_fade_speed, -1.0, 1.0);
  const double R = is_soil(curve.type) ? motion_resistance(curve) : p.rolling_resistance;
  const double F_resistance = -R * out.N * travel;

  // Lateral (rulings 3, 5): slip velocity v⊥, reference speed |v|, secant vs sin α.
  const double sin_alpha = t.V_y > 0.0 ? std::abs(in.v_perp) / t.V_y : 0.0;  // sin|α|
  const double f_y = sin_alpha > kTinySlip
                         ? std::abs(lateral_coefficient(curve, out.alpha, crolla)) / sin_alpha
                         : curve.mu_lat / curve.gamma;  // Crolla slope at α = 0
  const double c_y = p.patch_stiffness_y_per_load;
  const double d_y = p.patch_damping_y_per_load;
  out.patch_rate.u_y = patch_rate(patch.u_y, in.v_perp, t.V_y, f_y, c_y, d_y);
  const double F_lateral = out.N * (c_y * patch.u_y + d_y * out.patch_rate.u_y);

  // ruling 5: combined slip limited by the friction ellipse
  const double k =
      friction_ellipse_scale(curve, out.N, {.x = F_gross + F_resistance, .y = F_lateral});
  out.Fx = k * (F_gross + F_resistance);
  out.Fx_traction = k * F_gross;
  out.Fy = k * F_lateral;
  return out;
}

}  // namespace

TireOutputs evaluate_tire(const TireParams& p, const TireInputs& in,
                          const TirePatchState& patch) noexcept {
  return evaluate_tires(p, in, patch, p, in, patch).first;
}

TireOutputsPair evaluate_tires(const TireParams& p_a, const TireInputs& in_a,
                               const TirePatchState& patch_a, const TireParams& p_b,
                               const TireInputs& in_b, const TirePatchState& patch_b) noexcept {
  const TireSlip a = tire_slip(p_a, in_a);
  const TireSlip b = tire_slip(p_b, in_b);
  // The transcendentals of both tires, one vector call per function (models/math/vector_math.hpp)
  const vmath::Pair atan_tan_a = vmath::atan(a.tan_a, b.tan_a);
  const double alpha_a = slip_angle_of(in_a, atan_tan_a.first);
  const double alpha_b = slip_angle_of(in_b, atan_tan_a.second);
  const vmath::Pair crolla =
      vmath::exp(crolla_exponent(a.curve, alpha_a), crolla_exponent(b.curve, alpha_b));
  const bool pavement = !is_soil(a.curve.type) || !is_soil(b.curve.type);
  const vmath::Pair mf = pavement ? magic_formula(a.curve.pacejka, a.s_x, b.curve.pacejka, b.s_x)
                                  : vmath::Pair{0.0, 0.0};  // soils: soil_gross_traction()
  return {tire_forces(p_a, in_a, patch_a, a, alpha_a, mf.first, crolla.first),
          tire_forces(p_b, in_b, patch_b, b, alpha_b, mf.second, crolla.second)};
}

double wheel_spin_acceleration(const TireParams& p, double Q, double r_eff, double Fx,
                               double omega) noexcept {
  // ruling 8 (mavs-vti-model.md Step 5 with r_eff for d/2): I·dω/dt = Q − r_eff·Fx − β·ω
  return (Q - r_eff * Fx - p.bearing_damping * omega) / p.spin_inertia;
}

}  // namespace hil::models
