#include "models/tire/tire.hpp"

#include <algorithm>
#include <cmath>

#include "models/tire/tire_lanes.hpp"

namespace hil::models {

double normal_force(const TireParams& p, double delta, double delta_rate) noexcept {
  return tire_lanes::normal_force(lanes::splat(p.vertical_stiffness),
                                  lanes::splat(p.vertical_damping), lanes::splat(delta),
                                  lanes::splat(delta_rate))[0];
}

double effective_radius(const TireParams& p, double delta) noexcept {
  return tire_lanes::effective_radius(lanes::splat(p.diameter), lanes::splat(delta))[0];
}

double longitudinal_slip(double v_par, double r_omega) noexcept {
  const double V = std::max(std::abs(v_par), std::abs(r_omega));  // ruling 2 denominator
  if (V == 0.0) return 0.0;
  const double direction = v_par != 0.0 ? std::copysign(1.0, v_par) : std::copysign(1.0, r_omega);
  // ruling 2: (rω − v∥)/max(|rω|, |v∥|), mirrored in reverse
  return std::clamp(direction * (r_omega - v_par) / V, -1.0, 1.0);
}

double slip_angle(double v_par, double v_perp) noexcept {
  return tire_lanes::slip_angle(lanes::splat(v_par), lanes::splat(v_perp))[0];
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
  const auto [a, b] = evaluate_tires<lanes::L2>({&p_a, &p_b}, {in_a.surface, in_b.surface},
                                                {.v_par = input(&TireInputs::v_par),
                                                 .v_perp = input(&TireInputs::v_perp),
                                                 .delta = input(&TireInputs::delta),
                                                 .delta_rate = input(&TireInputs::delta_rate),
                                                 .omega = input(&TireInputs::omega),
                                                 .u_x = lanes::make(patch_a.u_x, patch_b.u_x),
                                                 .u_y = lanes::make(patch_a.u_y, patch_b.u_y)});
  return {a, b};
}

double wheel_spin_acceleration(const TireParams& p, double Q, double r_eff, double Fx,
                               double omega) noexcept {
  // ruling 8 (mavs-vti-model.md Step 5 with r_eff for d/2): I·dω/dt = Q − r_eff·Fx − β·ω
  return (Q - r_eff * Fx - p.bearing_damping * omega) / p.spin_inertia;
}

}  // namespace hil::models
