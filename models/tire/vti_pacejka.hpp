#pragma once
// Pacejka magic formula for dry and wet pavement, snow and ice (mavs-vti-model.md
// "Dry and Wet Pavement, Snow and Ice"; Short et al. 2004).

#include "models/math/vector_math.hpp"
#include "models/terrain/surface.hpp"

namespace hil::models {

/// B (stiffness), C (shape), D (peak), E (curvature) of the magic formula.
struct PacejkaCoefficients {
  double B = 0.0;
  double C = 0.0;
  double D = 0.0;
  double E = 0.0;
};

/// The seed's table, except ice B = 4 (ruling 4: Short et al. 2004 and MAVS's code use 4;
/// the table's 10 is a typo). Soils have no Pacejka coefficients: returns all zeros.
[[nodiscard]] PacejkaCoefficients pacejka_coefficients(Surface surface) noexcept;

/// Traction coefficient F∥/N = D·sin(C·atan(B·s − E·(B·s − atan(B·s)))) for slip s.
/// Odd in s; |result| ≤ D.
[[nodiscard]] double magic_formula(const PacejkaCoefficients& p, double s) noexcept;

/// magic_formula() of several tires at their slips, coefficients and slips in lanes (lane l
/// tire l), each function of all of them in vector calls: the same bits as one magic_formula()
/// call per tire (with Math = vmath::Portable). For V = L2 and L4.
template <lanes::Lanes V, class Math = vmath::Portable>
[[nodiscard]] V magic_formula(V B, V C, V D, V E, V s) noexcept {
  // mavs-vti-model.md "Dry and Wet Pavement, Snow and Ice", magic formula, per lane
  const V Bs = B * s;
  const V inner = Math::atan(Bs);
  const V outer = Math::atan(Bs - E * (Bs - inner));
  return D * Math::sin(C * outer);
}

}  // namespace hil::models
