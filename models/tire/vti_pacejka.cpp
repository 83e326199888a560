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
  return magic_formula(p, p, lanes::splat(s))[0];
}

lanes::L2 magic_formula(const PacejkaCoefficients& a, const PacejkaCoefficients& b,
                        lanes::L2 s) noexcept {
  // mavs-vti-model.md "Dry and Wet Pavement, Snow and Ice", magic formula, for a and b
  const auto coefficient = [&](double PacejkaCoefficients::*c) { return lanes::make(a.*c, b.*c); };
  const lanes::L2 Bs = coefficient(&PacejkaCoefficients::B) * s;
  const lanes::L2 inner = vmath::atan(Bs);
  const lanes::L2 outer = vmath::atan(Bs - coefficient(&PacejkaCoefficients::E) * (Bs - inner));
  return coefficient(&PacejkaCoefficients::D) *
         vmath::sin(coefficient(&PacejkaCoefficients::C) * outer);
}

}  // namespace hil::models
