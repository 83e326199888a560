#pragma once
// The VTI equation F^vti = f(N, δ, s, α) of mavs-vti-model.md Step 4, for every surface:
// longitudinal traction (Pacejka or soil), Crolla lateral traction, friction ellipse.
// Pure functions, noexcept, no allocation.

#include "models/math/lanes.hpp"
#include "models/math/vector_math.hpp"
#include "models/terrain/surface.hpp"
#include "models/tire/tire_params.hpp"
#include "models/tire/vti_pacejka.hpp"
#include "models/tire/vti_soil.hpp"

namespace hil::models {

/// A force pair in the steered wheel frame [N] (x forward, y left).
struct WheelForce {
  double x = 0.0;
  double y = 0.0;
};

/// The traction curves of one contact (surface, tire, load, deflection), built once per
/// evaluation by make_vti_curve(); friction_scale is already applied.
struct VtiCurve {
  Surface type = Surface::dry;
  PacejkaCoefficients pacejka;  ///< D already multiplied by friction_scale
  SoilContact soil;             ///< gross traction already multiplied by friction_scale
  double mu_x_max = 0.0;        ///< longitudinal semi-axis of the friction ellipse [-]
  double mu_lat = 0.0;          ///< μ_lat: Crolla peak = lateral semi-axis (ruling 5) [-]
  double gamma = 0.09;          ///< γ: Crolla coefficient [rad]
};

/// Builds the curves for load N [N] and deflection δ [m].
[[nodiscard]] VtiCurve make_vti_curve(const TireParams& tire, const SurfaceProperties& surface,
                                      double N, double delta) noexcept;

/// Gross traction coefficient: odd in s, zero at s = 0 (Pacejka: the magic formula; soils: T).
[[nodiscard]] double gross_traction(const VtiCurve& c, double s) noexcept;

/// d(gross_traction)/ds at s = 0 [-]: the slip stiffness per newton of load.
[[nodiscard]] double gross_slip_stiffness(const VtiCurve& c) noexcept;

/// Motion resistance coefficient R (soils; 0 on pavement) [-].
[[nodiscard]] double motion_resistance(const VtiCurve& c) noexcept;

/// Pure-slip net traction coefficient F∥/N in the direction of travel, slip s ∈ [−1, 1]
/// positive when driving: gross − R (soils clamped to [−1, 1]).
[[nodiscard]] double longitudinal_coefficient(const VtiCurve& c, double s) noexcept;

/// Pure-slip Crolla coefficient F⊥/N = −μ_lat·sign(α)·(1 − exp(−|α|/γ)) (ruling 5).
[[nodiscard]] double lateral_coefficient(const VtiCurve& c, double alpha) noexcept;
/// Crolla's μ_lat·(1 − e^(−|α|/γ)) of several contacts (one per lane), the exponentials in
/// vector calls: |lateral_coefficient()| wherever α ≠ 0 (with Math = vmath::Portable). For V = L2
/// and L4.
template <lanes::Lanes V, class Math = vmath::Portable>
[[nodiscard]] V crolla_magnitude(V mu_lat, V gamma, V alpha) noexcept {
  // mavs-vti-model.md "Lateral Traction" (Crolla): μ_lat·(1 − e^(−|α|/γ))
  return mu_lat * (lanes::splat<V>(1.0) - Math::exp(-lanes::abs(alpha) / gamma));
}

/// The factor k ≤ 1 by which friction_ellipse() scales f (1 inside the ellipse, 0 without
/// grip).
[[nodiscard]] double friction_ellipse_scale(const VtiCurve& c, double N, WheelForce f) noexcept;
/// friction_ellipse_scale() of contacts with semi-axes μ_x·N and μ_lat·N, per lane. For V = L2
/// and L4.
template <lanes::Lanes V>
[[nodiscard]] V friction_ellipse_scale(V mu_x_max, V mu_lat, V N, V fx, V fy) noexcept {
  const V ax = mu_x_max * N;
  const V ay = mu_lat * N;
  const V ex = fx / ax;
  const V ey = fy / ay;
  const V rho2 = ex * ex + ey * ey;  // ruling 5: friction ellipse (Fx/μx·N)² + (Fy/μy·N)²
  const V one = lanes::splat<V>(1.0);
  const V k = lanes::select(rho2 <= one, one, one / lanes::sqrt(rho2));
  const V zero = lanes::splat<V>(0.0);
  return lanes::select((ax <= zero) | (ay <= zero), zero, k);  // no grip
}

/// Scales f so that (f.x/(μ_x·N))² + (f.y/(μ_lat·N))² ≤ 1 (ruling 5, combined slip).
[[nodiscard]] WheelForce friction_ellipse(const VtiCurve& c, double N, WheelForce f) noexcept;

/// Steady-state forces at slip s and slip angle α, forward travel: the pure-slip formulas
/// combined by the friction ellipse. What `hilsim tire-curve` prints.
[[nodiscard]] WheelForce steady_state_forces(const VtiCurve& c, double N, double s,
                                             double alpha) noexcept;

}  // namespace hil::models
