#include "models/tire/vti.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

VtiCurve make_vti_curve(const TireParams& tire, const SurfaceProperties& surface, double N,
                        double delta) noexcept {
  VtiCurve c;
  c.type = surface.type;
  c.gamma = tire.crolla_gamma;
  const double scale = std::max(surface.friction_scale, 0.0);  // ruling 5: scales μ
  if (!is_soil(surface.type)) {
    c.pacejka = pacejka_coefficients(surface.type);
    c.pacejka.D *= scale;
    c.mu_x_max = c.pacejka.D;  // |D·sin(·)| ≤ D
    c.mu_lat = c.pacejka.D;    // ruling 5: μ_lat = the surface's peak friction D
    return c;
  }
  const SoilTire t{.b = tire.width, .d = tire.diameter, .h = tire.section_height, .delta = delta};
  c.soil = surface.type == Surface::sand ? sand_contact(t, surface.cone_index_pa, N)
                                         : clay_contact(t, surface.cone_index_pa, N);
  c.soil.gain *= scale;
  const double T1 = soil_gross_traction(c.soil, 1.0);  // T increases with s: peak at s = 1
  c.mu_x_max = std::min(T1 + c.soil.resistance, 1.0);  // = |net(−1)|, the largest |net|
  c.mu_lat = std::min(T1, 1.0);                        // ruling 5: peak gross traction
  return c;
}

double gross_traction(const VtiCurve& c, double s) noexcept {
  return is_soil(c.type) ? soil_gross_traction(c.soil, s) : magic_formula(c.pacejka, s);
}

double gross_slip_stiffness(const VtiCurve& c) noexcept {
  if (!is_soil(c.type)) return c.pacejka.B * c.pacejka.C * c.pacejka.D;  // d/ds MF at 0
  if (!c.soil.clay) return c.soil.gain / c.soil.knee;                    // d/ds gain·s/(s+knee)
  return soil_gross_traction(c.soil, c.soil.linear_slip) / c.soil.linear_slip;  // chord
}

double motion_resistance(const VtiCurve& c) noexcept {
  return is_soil(c.type) ? c.soil.resistance : 0.0;
}

double longitudinal_coefficient(const VtiCurve& c, double s) noexcept {
  return is_soil(c.type) ? soil_net_traction(c.soil, s) : magic_formula(c.pacejka, s);
}

double lateral_coefficient(const VtiCurve& c, double alpha) noexcept {
  // mavs-vti-model.md "Lateral Traction" (Crolla), sign per ruling 5: opposes v⊥
  const double magnitude =
      crolla_magnitude(lanes::splat(c.mu_lat), lanes::splat(c.gamma), lanes::splat(alpha))[0];
  return alpha > 0.0 ? -magnitude : (alpha < 0.0 ? magnitude : 0.0);
}

double friction_ellipse_scale(const VtiCurve& c, double N, WheelForce f) noexcept {
  return friction_ellipse_scale(lanes::splat(c.mu_x_max), lanes::splat(c.mu_lat), lanes::splat(N),
                                lanes::splat(f.x), lanes::splat(f.y))[0];
}

WheelForce friction_ellipse(const VtiCurve& c, double N, WheelForce f) noexcept {
  const double k = friction_ellipse_scale(c, N, f);
  return {.x = k * f.x, .y = k * f.y};
}

WheelForce steady_state_forces(const VtiCurve& c, double N, double s, double alpha) noexcept {
  return friction_ellipse(
      c, N, {.x = N * longitudinal_coefficient(c, s), .y = N * lateral_coefficient(c, alpha)});
}

}  // namespace hil::models
