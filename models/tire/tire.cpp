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

/// Rate of one patch deflection per lane (ruling 3, TMeasy first-order contact dynamics, all
/// terms per newton of load): c·u + d·u̇ = −f·(v_s + u̇)/V  ⇒  u̇ = −(c·u·V + f·v_s)/(d·V + f),
/// with v_s the slip velocity, V the slip reference speed and f the secant stiffness F_ss/slip.
lanes::L2 patch_rate(lanes::L2 u, lanes::L2 v_s, lanes::L2 V, lanes::L2 f, lanes::L2 c,
                     lanes::L2 d) noexcept {
  const lanes::L2 zero = lanes::splat(0.0);
  const lanes::L2 den = d * V + f;
  const lanes::L2 relaxed = lanes::select(d > zero, -c / d * u, zero);  // no grip: tread relaxes
  return lanes::select(den <= lanes::splat(kTinyDenominator), relaxed,
                       -(c * u * V + f * v_s) / den);
}

/// Step 2, ruling 9: N = max(0, kδ − c·v↑), with dδ/dt = −v↑ (never pulls); 0 when δ ≤ 0.
lanes::L2 normal_force(lanes::L2 k, lanes::L2 c, lanes::L2 delta, lanes::L2 delta_rate) noexcept {
  const lanes::L2 zero = lanes::splat(0.0);
  return lanes::select(delta <= zero, zero, lanes::max(zero, k * delta + c * delta_rate));
}

/// Step 3: r_eff = d/2 − δ (d/2 off the ground).
lanes::L2 effective_radius(lanes::L2 diameter, lanes::L2 delta) noexcept {
  return lanes::splat(0.5) * diameter - lanes::max(delta, lanes::splat(0.0));
}

/// Ruling 1: α = atan(v⊥/|v∥|) in the steered frame; ±π/2 where v∥ = 0 ≠ v⊥, 0 at rest.
lanes::L2 slip_angle(lanes::L2 v_par, lanes::L2 v_perp) noexcept {
  const lanes::L2 zero = lanes::splat(0.0);
  const lanes::L2 a = lanes::abs(v_par);
  const lanes::L2 sideways =
      lanes::select(v_perp > zero, lanes::splat(kHalfPi),
                    lanes::select(v_perp < zero, lanes::splat(-kHalfPi), zero));
  const lanes::L2 moving = vmath::atan(lanes::select(a > zero, v_perp / a, zero));
  return lanes::select(a > zero, moving, lanes::select(a == zero, sideways, v_perp / a));
}

}  // namespace

double normal_force(const TireParams& p, double delta, double delta_rate) noexcept {
  return normal_force(lanes::splat(p.vertical_stiffness), lanes::splat(p.vertical_damping),
                      lanes::splat(delta), lanes::splat(delta_rate))[0];
}

double effective_radius(const TireParams& p, double delta) noexcept {
  return effective_radius(lanes::splat(p.diameter), lanes::splat(delta))[0];
}

double longitudinal_slip(double v_par, double r_omega) noexcept {
  const double V = std::max(std::abs(v_par), std::abs(r_omega));  // ruling 2 denominator
  if (V == 0.0) return 0.0;
  const double direction = v_par != 0.0 ? std::copysign(1.0, v_par) : std::copysign(1.0, r_omega);
  // ruling 2: (rω − v∥)/max(|rω|, |v∥|), mirrored in reverse
  return std::clamp(direction * (r_omega - v_par) / V, -1.0, 1.0);
}

double slip_angle(double v_par, double v_perp) noexcept {
  return slip_angle(lanes::splat(v_par), lanes::splat(v_perp))[0];
}

TireOutputs evaluate_tire(const TireParams& p, const TireInputs& in,
                          const TirePatchState& patch) noexcept {
  return evaluate_tires(p, in, patch, p, in, patch).first;
}

TireOutputsPair evaluate_tires(const TireParams& p_a, const TireInputs& in_a,
                               const TirePatchState& patch_a, const TireParams& p_b,
                               const TireInputs& in_b, const TirePatchState& patch_b) noexcept {
  const auto input = [&](double TireInputs::*field) {
    return lanes::make(in_a.*field, in_b.*field);
  };
  return evaluate_tires(p_a, in_a.surface, p_b, in_b.surface,
                        {.v_par = input(&TireInputs::v_par),
                         .v_perp = input(&TireInputs::v_perp),
                         .delta = input(&TireInputs::delta),
                         .delta_rate = input(&TireInputs::delta_rate),
                         .omega = input(&TireInputs::omega),
                         .u_x = lanes::make(patch_a.u_x, patch_b.u_x),
                         .u_y = lanes::make(patch_a.u_y, patch_b.u_y)});
}

TireOutputsPair evaluate_tires(const TireParams& p_a, const SurfaceProperties& surface_a,
                               const TireParams& p_b, const SurfaceProperties& surface_b,
                               const TireInputLanes& in) noexcept {
  // Tire a in lane 0, tire b in lane 1 (models/math/lanes.hpp): each lane the same operations
  // in the same order as one tire alone, each transcendental of both in one vector call
  using lanes::L2;
  using lanes::select;
  const auto param = [&](double TireParams::*field) { return lanes::make(p_a.*field, p_b.*field); };
  const L2 zero = lanes::splat(0.0);
  const L2 one = lanes::splat(1.0);
  const L2 v_par = in.v_par;
  const L2 v_perp = in.v_perp;
  const L2 delta = in.delta;

  const L2 N = normal_force(param(&TireParams::vertical_stiffness),
                            param(&TireParams::vertical_damping), delta, in.delta_rate);
  const L2 r_eff = effective_radius(param(&TireParams::diameter), delta);
  const L2 r_omega = r_eff * in.omega;
  const VtiCurve curve_a = make_vti_curve(p_a, surface_a, N[0], delta[0]);
  const VtiCurve curve_b = make_vti_curve(p_b, surface_b, N[1], delta[1]);
  const auto curve = [&](double VtiCurve::*field) {
    return lanes::make(curve_a.*field, curve_b.*field);
  };

  // Longitudinal (ruling 3): signed slip s_x = (rω − v∥)/V_x, slip velocity v∥ − rω; the
  // kinematic slip of ruling 2 is s_x mirrored in reverse (= longitudinal_slip()).
  const L2 V_x = lanes::max(lanes::abs(v_par), lanes::abs(r_omega));
  const L2 s_x = select(V_x > zero, lanes::clamp((r_omega - v_par) / V_x, -one, one), zero);
  const L2 s = select((v_par < zero) | ((v_par == zero) & (r_omega < zero)), -s_x, s_x);
  const L2 V_y = lanes::sqrt(v_par * v_par + v_perp * v_perp);
  const L2 alpha = slip_angle(v_par, v_perp);

  // Gross traction at s_x: Pacejka's magic formula, the soils' laws (soil_gross_traction())
  const bool soil_a = is_soil(curve_a.type);
  const bool soil_b = is_soil(curve_b.type);
  L2 gross = (soil_a && soil_b) ? zero : magic_formula(curve_a.pacejka, curve_b.pacejka, s_x);
  if (soil_a) gross[0] = gross_traction(curve_a, s_x[0]);
  if (soil_b) gross[1] = gross_traction(curve_b, s_x[1]);
  L2 f_x = gross / s_x;  // the secant; the slope at s = 0 for a tiny slip
  if (!(std::abs(s_x[0]) > kTinySlip)) f_x[0] = gross_slip_stiffness(curve_a);
  if (!(std::abs(s_x[1]) > kTinySlip)) f_x[1] = gross_slip_stiffness(curve_b);
  const L2 c_x = param(&TireParams::patch_stiffness_x_per_load);
  const L2 d_x = param(&TireParams::patch_damping_x_per_load);
  const L2 u_x = in.u_x;
  const L2 u_x_rate = patch_rate(u_x, v_par - r_omega, V_x, f_x, c_x, d_x);
  const L2 F_gross = N * (c_x * u_x + d_x * u_x_rate);
  // Soil motion resistance (or pavement rolling resistance) opposes travel; faded out below
  // resistance_fade_speed (ruling 3)
  const L2 travel = lanes::clamp(v_par / param(&TireParams::resistance_fade_speed), -one, one);
  const L2 R = lanes::make(soil_a ? motion_resistance(curve_a) : p_a.rolling_resistance,
                           soil_b ? motion_resistance(curve_b) : p_b.rolling_resistance);
  const L2 F_resistance = -R * N * travel;

  // Lateral (rulings 3, 5): slip velocity v⊥, reference speed |v|, secant vs sin α; Crolla
  // |lateral_coefficient()| = μ_lat·(1 − e^(−|α|/γ)) where α ≠ 0, its slope at α = 0 below
  const L2 mu_lat = curve(&VtiCurve::mu_lat);
  const L2 gamma = curve(&VtiCurve::gamma);
  const L2 sin_alpha = select(V_y > zero, lanes::abs(v_perp) / V_y, zero);  // sin|α|
  const L2 lateral = select((alpha > zero) | (alpha < zero),
                            lanes::abs(crolla_magnitude(mu_lat, gamma, alpha)), zero);
  const L2 f_y = select(sin_alpha > lanes::splat(kTinySlip), lateral / sin_alpha, mu_lat / gamma);
  const L2 c_y = param(&TireParams::patch_stiffness_y_per_load);
  const L2 d_y = param(&TireParams::patch_damping_y_per_load);
  const L2 u_y = in.u_y;
  const L2 u_y_rate = patch_rate(u_y, v_perp, V_y, f_y, c_y, d_y);
  const L2 F_lateral = N * (c_y * u_y + d_y * u_y_rate);

  // ruling 5: combined slip limited by the friction ellipse
  const L2 F_x = F_gross + F_resistance;
  const L2 k = friction_ellipse_scale(curve(&VtiCurve::mu_x_max), mu_lat, N, F_x, F_lateral);
  const L2 Fx = k * F_x;
  const L2 Fx_traction = k * F_gross;
  const L2 Fy = k * F_lateral;
  const auto lane = [&](int i) {
    return TireOutputs{.Fx = Fx[i],
                       .Fx_traction = Fx_traction[i],
                       .Fy = Fy[i],
                       .N = N[i],
                       .s = s[i],
                       .alpha = alpha[i],
                       .r_eff = r_eff[i],
                       .patch_rate = {.u_x = u_x_rate[i], .u_y = u_y_rate[i]}};
  };
  return {lane(0), lane(1)};
}

double wheel_spin_acceleration(const TireParams& p, double Q, double r_eff, double Fx,
                               double omega) noexcept {
  // ruling 8 (mavs-vti-model.md Step 5 with r_eff for d/2): I·dω/dt = Q − r_eff·Fx − β·ω
  return (Q - r_eff * Fx - p.bearing_damping * omega) / p.spin_inertia;
}

}  // namespace hil::models
