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
  using lanes::splat;
  return magic_formula(splat(p.B), splat(p.C), splat(p.D), splat(p.E), splat(s))[0];
}

}  // namespace hil::models
