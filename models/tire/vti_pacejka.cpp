#include "models/tire/vti_pacejka.hpp"

namespace hil::models {

PacejkaCoefficients pacejka_coefficients(Surface surface) noexcept {
  switch (surface) {
    case Surface::dry:
      return {.B = 10.0, .C = 1.9, .D = 1.0, .E = 0.97};  // seed table
    case Surface::wet:
      return {.B = 12.0, .C = 2.3, .D = 0.82, .E = 1.0};  // seed table
    case Surface::snow:
      return {.B = 5.0, .C = 2.0, .D = 0.3, .E = 1.0};  // seed table
    case Surface::ice:
      return {.B = 4.0, .C = 2.0, .D = 0.1, .E = 1.0};  // ruling 4: B = 4
    case Surface::sand:
    case Surface::clay:
      break;
  }
  return {};
}

double magic_formula(const PacejkaCoefficients& p, double s) noexcept {
  return magic_formula(p, s, p, s).first;
}

vmath::Pair magic_formula(const PacejkaCoefficients& a, double s_a, const PacejkaCoefficients& b,
                          double s_b) noexcept {
  // mavs-vti-model.md "Dry and Wet Pavement, Snow and Ice", magic formula, for a and b
  const double Bs_a = a.B * s_a;
  const double Bs_b = b.B * s_b;
  const vmath::Pair inner = vmath::atan(Bs_a, Bs_b);
  const vmath::Pair outer =
      vmath::atan(Bs_a - a.E * (Bs_a - inner.first), Bs_b - b.E * (Bs_b - inner.second));
  const vmath::Pair sine = vmath::sin(a.C * outer.first, b.C * outer.second);
  return {a.D * sine.first, b.D * sine.second};
}

}  // namespace hil::models
