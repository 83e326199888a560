#pragma once
// Bekker–Wong terramechanics of a rigid wheel on soft soil (docs/models.md "Soft soil
// (Bekker–Wong)"): the pressure–sinkage law (Bekker; Reece's form as an option), the
// Janosi–Hanamoto shear stress–shear displacement law, and the Wong–Reece normal and shear
// stress distribution around the rim, integrated to the vertical force W, drawbar pull DP,
// motion resistance and driving torque. The soil parameters: models/terrain/bekker_soil.hpp.
//
// Geometry (Wong & Reece 1967): angles from bottom dead centre, + toward the front; the wheel
// touches the soil from the entry angle θ1 (cos θ1 = 1 − z/r) to the exit angle θ2 = −c3·θ1;
// the normal stress peaks at θ_m = (c1 + c2·s)·θ1. Slip s ∈ [−1, 1], + when driving (the
// kinematic slip of models/tire/tire.hpp): v/(rω) = 1 − s driving, 1/(1 + s) braking.
//
// RT: every function is noexcept, allocation-free and bounded: the integrals are fixed-count
// Gauss–Legendre quadratures (kQuadraturePoints per region), the sinkage solve a bracketed
// iteration of at most kMaxSinkageIterations steps. Any thread.

#include "models/terrain/bekker_soil.hpp"
#include "models/tire/bekker_quadrature.hpp"  // kQuadraturePoints per region

namespace hil::models {

/// A rigid wheel's rim: radius r and width b [m].
struct RigidWheel {
  double r = 0.0;
  double b = 0.0;
};

/// Most steps of rigid_wheel_sinkage().
inline constexpr int kMaxSinkageIterations = 60;

/// The modulus k of p = k·zⁿ for a plate (or wheel) of width b [N/m^(n+2)]: Bekker
/// k_c/b + k_φ; Reece (c·k'_c + γ_s·b·k'_φ)/bⁿ.
[[nodiscard]] double pressure_sinkage_modulus(const BekkerSoil& soil, double b) noexcept;

/// The pressure under a plate of width b sunk to z ≥ 0 [Pa] (Bekker or Reece).
[[nodiscard]] double plate_pressure(const BekkerSoil& soil, double b, double z) noexcept;

/// The sinkage of a plate of width b under pressure p ≥ 0 [m]: the law inverted,
/// z = (p/k)^(1/n).
[[nodiscard]] double plate_sinkage(const BekkerSoil& soil, double b, double p) noexcept;

/// Janosi–Hanamoto: τ = (c + σ·tan φ)·(1 − e^(−|j|/K))·sign(j) [Pa] for normal stress σ
/// [Pa] and shear displacement j [m]; K = 0: fully mobilised at any j ≠ 0.
[[nodiscard]] double janosi_hanamoto(const BekkerSoil& soil, double sigma, double j) noexcept;

/// The resultants of the stresses on the rim (per wheel; + forward, + up).
struct WheelSoilForces {
  double W = 0.0;       ///< vertical force the soil carries [N]
  double DP = 0.0;      ///< drawbar pull = thrust − resistance, horizontal [N]
  double thrust = 0.0;  ///< horizontal component of the shear stresses [N]
  /// Motion resistance: horizontal component of the normal stresses, against travel [N]
  /// (for θ_m = 0 and no shear: Bekker's compaction resistance b·k·z^(n+1)/(n+1)).
  double resistance = 0.0;
  double torque = 0.0;   ///< driving torque the shear stresses resist, r²·b·∫τ dθ [N·m]
  double theta1 = 0.0;   ///< entry angle [rad]
  double theta_m = 0.0;  ///< angle of the maximum normal stress [rad]
};

/// The Wong–Reece integrals of a rigid wheel sunk to z ≥ 0 at slip s (all 0 for z ≤ 0; z is
/// clamped to r).
[[nodiscard]] WheelSoilForces rigid_wheel_forces(const BekkerSoil& soil, const RigidWheel& wheel,
                                                 double z, double s) noexcept;

/// The sinkage at which the wheel at slip s carries the load W ≥ 0 [m]: W(z) = W solved by
/// bisection-safeguarded secant steps on [0, r] (at most kMaxSinkageIterations steps, to a
/// relative 1e-12 of the load); r when even z = r does not carry it.
[[nodiscard]] double rigid_wheel_sinkage(const BekkerSoil& soil, const RigidWheel& wheel, double W,
                                         double s) noexcept;

}  // namespace hil::models
