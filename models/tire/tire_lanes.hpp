#pragma once
// The tire of models/tire/tire.hpp for several tires at once, tire l in lane l
// (models/math/lanes.hpp: L2, L4): what the vehicle's derivative runs, an axle's wheels or two
// axles' together. Each lane the same operations in the same order as evaluate_tire() of that
// tire alone, so the same bits (tested); each transcendental of all lanes in vector calls.
// Templates, defined here so that a caller built for wider registers inlines them. Pure
// functions: any thread, noexcept, no allocation.

#include <array>
#include <cmath>
#include <numbers>

#include "models/math/lanes.hpp"
#include "models/math/vector_math.hpp"
#include "models/tire/bekker_contact.hpp"
#include "models/tire/tire.hpp"
#include "models/tire/vti.hpp"

namespace hil::models {

/// The lanes forms of tire.hpp's per-tire functions (each of those is lane 0 of its form here).
namespace tire_lanes {

constexpr double kHalfPi = std::numbers::pi / 2;
constexpr double kTinySlip = 1e-12;         // below: use the slope at s = 0 for the secant
constexpr double kTinyDenominator = 1e-12;  // patch-rate denominator that counts as zero

/// Rate of one patch deflection per lane (ruling 3, TMeasy first-order contact dynamics, all
/// terms per newton of load): c·u + d·u̇ = −f·(v_s + u̇)/V  ⇒  u̇ = −(c·u·V + f·v_s)/(d·V + f),
/// with v_s the slip velocity, V the slip reference speed and f the secant stiffness F_ss/slip.
template <lanes::Lanes V>
V patch_rate(V u, V v_s, V V_ref, V f, V c, V d) noexcept {
  const V zero = lanes::splat<V>(0.0);
  const V den = d * V_ref + f;
  const V relaxed = lanes::select(d > zero, -c / d * u, zero);  // no grip: tread relaxes
  return lanes::select(den <= lanes::splat<V>(kTinyDenominator), relaxed,
                       -(c * u * V_ref + f * v_s) / den);
}

/// Step 2, ruling 9: N = max(0, kδ − c·v↑), with dδ/dt = −v↑ (never pulls); 0 when δ ≤ 0.
template <lanes::Lanes V>
V normal_force(V k, V c, V delta, V delta_rate) noexcept {
  const V zero = lanes::splat<V>(0.0);
  return lanes::select(delta <= zero, zero, lanes::max(zero, k * delta + c * delta_rate));
}

/// Step 3: r_eff = d/2 − δ (d/2 off the ground).
template <lanes::Lanes V>
V effective_radius(V diameter, V delta) noexcept {
  return lanes::splat<V>(0.5) * diameter - lanes::max(delta, lanes::splat<V>(0.0));
}

/// Ruling 1: α = atan(v⊥/|v∥|) in the steered frame; ±π/2 where v∥ = 0 ≠ v⊥, 0 at rest.
template <lanes::Lanes V, class Math = vmath::Portable>
V slip_angle(V v_par, V v_perp) noexcept {
  const V zero = lanes::splat<V>(0.0);
  const V a = lanes::abs(v_par);
  const V sideways = lanes::select(v_perp > zero, lanes::splat<V>(kHalfPi),
                                   lanes::select(v_perp < zero, lanes::splat<V>(-kHalfPi), zero));
  const V moving = Math::atan(lanes::select(a > zero, v_perp / a, zero));
  return lanes::select(a > zero, moving, lanes::select(a == zero, sideways, v_perp / a));
}

}  // namespace tire_lanes

/// The inputs of several tires in lanes (tire l in lane l; models/math/lanes.hpp): TireInputs
/// and TirePatchState field by field, the surfaces apart.
template <lanes::Lanes V>
struct TireInputLanes {
  V v_par;
  V v_perp;
  V delta;
  V delta_rate;
  V omega;
  V u_x;
  V u_y;
};

/// evaluate_tires() of inputs already in lanes (tire l with params[l] on surfaces[l]): what the
/// vehicle, which computes its wheels in lanes, calls. With Math = vmath::Portable each lane the
/// bits of evaluate_tire() of that tire alone; with vmath::Avx2Fma (four lanes, in code built
/// for AVX2 and FMA) within the kernels' 4 ulp of them. For V = L2 and L4.
template <lanes::Lanes V, class Math = vmath::Portable>
[[nodiscard]] std::array<TireOutputs, lanes::kWidth<V>> evaluate_tires(
    const std::array<const TireParams*, lanes::kWidth<V>>& params,
    const std::array<SurfaceProperties, lanes::kWidth<V>>& surfaces,
    const TireInputLanes<V>& in) noexcept {
  // Tire l in lane l (models/math/lanes.hpp): each lane the same operations in the same order
  // as one tire alone, each transcendental of all in vector calls
  constexpr int kLanes = lanes::kWidth<V>;
  using lanes::select;
  const auto param = [&](double TireParams::*field) {
    return lanes::gather<V>([&](int l) { return params[l]->*field; });
  };
  const V zero = lanes::splat<V>(0.0);
  const V one = lanes::splat<V>(1.0);
  const V v_par = in.v_par;
  const V v_perp = in.v_perp;
  const V delta = in.delta;

  V N = tire_lanes::normal_force(param(&TireParams::vertical_stiffness),
                                 param(&TireParams::vertical_damping), delta, in.delta_rate);
  V r_eff = tire_lanes::effective_radius(param(&TireParams::diameter), delta);
  // A soil by Bekker–Wong (models/tire/bekker_contact.hpp): a rigid wheel rolling at d/2
  std::array<bool, kLanes> bekker{};
  for (int l = 0; l < kLanes; ++l) {
    bekker[l] = surfaces[l].soil.valid();
    if (bekker[l]) r_eff[l] = 0.5 * params[l]->diameter;
  }
  const V r_omega = r_eff * in.omega;
  // Longitudinal (ruling 3): signed slip s_x = (rω − v∥)/V_x, slip velocity v∥ − rω; the
  // kinematic slip of ruling 2 is s_x mirrored in reverse (= longitudinal_slip()).
  const V V_x = lanes::max(lanes::abs(v_par), lanes::abs(r_omega));
  const V s_x = select(V_x > zero, lanes::clamp((r_omega - v_par) / V_x, -one, one), zero);
  const V s = select((v_par < zero) | ((v_par == zero) & (r_omega < zero)), -s_x, s_x);
  std::array<BekkerContact, kLanes> soft{};
  for (int l = 0; l < kLanes; ++l) {
    if (!bekker[l]) continue;
    soft[l] = bekker_contact(*params[l], surfaces[l].soil, delta[l], in.delta_rate[l], s[l],
                             surfaces[l].friction_scale);
    N[l] = soft[l].N;
  }
  const std::array<VtiCurve, kLanes> curves = lanes::array_of<V>([&](int l) {
    if (!bekker[l]) return make_vti_curve(*params[l], surfaces[l], N[l], delta[l]);
    return VtiCurve{.type = surfaces[l].type,
                    .mu_x_max = soft[l].mu_x_max,
                    .mu_lat = soft[l].mu_lat,
                    .gamma = params[l]->crolla_gamma};
  });
  const auto curve = [&](double VtiCurve::*field) {
    return lanes::gather<V>([&](int l) { return curves[l].*field; });
  };
  const auto pacejka = [&](double PacejkaCoefficients::*field) {
    return lanes::gather<V>([&](int l) { return curves[l].pacejka.*field; });
  };
  std::array<bool, kLanes> soil{};
  bool all_soil = true;
  for (int l = 0; l < kLanes; ++l) {
    soil[l] = is_soil(curves[l].type) || bekker[l];
    all_soil = all_soil && soil[l];
  }
  const V V_y = lanes::sqrt(v_par * v_par + v_perp * v_perp);
  const V alpha = tire_lanes::slip_angle<V, Math>(v_par, v_perp);

  // Gross traction at s_x: Pacejka's magic formula, the soils' laws (soil_gross_traction())
  V gross = all_soil ? zero
                     : magic_formula<V, Math>(
                           pacejka(&PacejkaCoefficients::B), pacejka(&PacejkaCoefficients::C),
                           pacejka(&PacejkaCoefficients::D), pacejka(&PacejkaCoefficients::E), s_x);
  V R = zero;
  V rolling = zero;  // Bekker–Wong: the spin's resistance at s = 0, T(0)/(r·N)
  for (int l = 0; l < kLanes; ++l) {
    if (bekker[l]) {
      gross[l] = s_x[l] == s[l] ? soft[l].gross : -soft[l].gross;  // mirrored in reverse
      R[l] = soft[l].resistance;
      rolling[l] = soft[l].rolling;
      continue;
    }
    if (soil[l]) gross[l] = gross_traction(curves[l], s_x[l]);
    // Soil motion resistance, or pavement rolling resistance
    R[l] = soil[l] ? motion_resistance(curves[l]) : params[l]->rolling_resistance;
  }
  V f_x = gross / s_x;  // the secant; the slope at s = 0 for a tiny slip
  for (int l = 0; l < kLanes; ++l) {
    if (!(std::abs(s_x[l]) > tire_lanes::kTinySlip)) {
      f_x[l] = bekker[l] ? soft[l].slip_stiffness : gross_slip_stiffness(curves[l]);
    }
  }
  const V c_x = param(&TireParams::patch_stiffness_x_per_load);
  const V d_x = param(&TireParams::patch_damping_x_per_load);
  const V u_x = in.u_x;
  const V u_x_rate = tire_lanes::patch_rate(u_x, v_par - r_omega, V_x, f_x, c_x, d_x);
  const V F_gross = N * (c_x * u_x + d_x * u_x_rate);
  // The resistance opposes travel; faded out below resistance_fade_speed (ruling 3)
  const V travel = lanes::clamp(v_par / param(&TireParams::resistance_fade_speed), -one, one);
  const V F_resistance = -R * N * travel;
  // Bekker–Wong: the soil's shear at s = 0, which the spin must overcome to roll
  const V F_rolling = rolling * N * travel;

  // Lateral (rulings 3, 5): slip velocity v⊥, reference speed |v|, secant vs sin α; Crolla
  // |lateral_coefficient()| = μ_lat·(1 − e^(−|α|/γ)) where α ≠ 0, its slope at α = 0 below
  const V mu_lat = curve(&VtiCurve::mu_lat);
  const V gamma = curve(&VtiCurve::gamma);
  const V sin_alpha = select(V_y > zero, lanes::abs(v_perp) / V_y, zero);  // sin|α|
  const V lateral = select((alpha > zero) | (alpha < zero),
                           lanes::abs(crolla_magnitude<V, Math>(mu_lat, gamma, alpha)), zero);
  const V f_y = select(sin_alpha > lanes::splat<V>(tire_lanes::kTinySlip), lateral / sin_alpha,
                       mu_lat / gamma);
  const V c_y = param(&TireParams::patch_stiffness_y_per_load);
  const V d_y = param(&TireParams::patch_damping_y_per_load);
  const V u_y = in.u_y;
  const V u_y_rate = tire_lanes::patch_rate(u_y, v_perp, V_y, f_y, c_y, d_y);
  const V F_lateral = N * (c_y * u_y + d_y * u_y_rate);

  // ruling 5: combined slip limited by the friction ellipse
  const V F_x = F_gross + F_resistance + F_rolling;
  const V k = friction_ellipse_scale(curve(&VtiCurve::mu_x_max), mu_lat, N, F_x, F_lateral);
  const V Fx = k * F_x;
  const V Fx_traction = k * (F_gross + F_rolling);
  const V Fy = k * F_lateral;
  return lanes::array_of<V>([&](int l) {
    return TireOutputs{.Fx = Fx[l],
                       .Fx_traction = Fx_traction[l],
                       .Fy = Fy[l],
                       .N = N[l],
                       .s = s[l],
                       .alpha = alpha[l],
                       .r_eff = r_eff[l],
                       .sinkage = soft[l].sinkage,
                       .patch_rate = {.u_x = u_x_rate[l], .u_y = u_y_rate[l]}};
  });
}
}  // namespace hil::models
