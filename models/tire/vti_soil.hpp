#pragma once
// Soil VTI: coarse-grained (sand, Mason 2018 / Williams 2019) and fine-grained (clay,
// Detwiller 2018) traction (mavs-vti-model.md "Coarse-grained Soil", "Fine-Grained Soil").
// Readings, units and the regularisation at small slip: docs/models.md, rulings 6 and 7.

namespace hil::models {

/// Load- and tire-dependent numbers of one soil contact, computed once per evaluation.
/// Net traction coefficient in the direction of travel: F∥/N = clamp(T(s) − R, −1, 1), with
/// the gross traction T odd and increasing in s and T(0) = 0.
struct SoilContact {
  double mobility = 0.0;    ///< N_s (sand) or N_c (clay) [-]
  double resistance = 0.0;  ///< R: motion resistance coefficient [-]
  // Gross traction T(s) for s ≥ 0 is  gain·s / (s + knee)  (sand, exact rewrite of
  // X − X·Y/(N_s + 10 + Y))  or  the clay log law beyond linear_slip, its chord below.
  double gain = 0.0;         ///< sand: X·(N_s+10)/(N_s+14.71); clay: (1 + b/d)^0.25
  double knee = 0.0;         ///< sand: 1.72/(N_s+14.71); clay: S_sp
  double linear_slip = 0.0;  ///< clay: below this slip T is the chord through the origin
  bool clay = false;
};

/// Tire geometry and state the soil numerics need.
struct SoilTire {
  double b = 0.0;      ///< section width [m]
  double d = 0.0;      ///< diameter [m]
  double h = 0.0;      ///< section height [m]
  double delta = 0.0;  ///< deflection δ [m]
};

/// Sand: N_s = G·(b·d)^1.5·(δ/h)/N with G = CI / (3.47 in) [Pa/m] (ruling 6).
[[nodiscard]] SoilContact sand_contact(const SoilTire& tire, double cone_index_pa,
                                       double N) noexcept;

/// Clay: N_c = CI·b·d / (N·(1 − δ/h)^1.5·(1 + b/d)^0.75) (ruling 7).
[[nodiscard]] SoilContact clay_contact(const SoilTire& tire, double cone_index_pa,
                                       double N) noexcept;

/// Gross traction coefficient T(s), odd in s, T(0) = 0, finite for all s.
[[nodiscard]] double soil_gross_traction(const SoilContact& c, double s) noexcept;

/// Net traction coefficient in the direction of travel: clamp(T(s) − R, −1, 1).
[[nodiscard]] double soil_net_traction(const SoilContact& c, double s) noexcept;

}  // namespace hil::models
