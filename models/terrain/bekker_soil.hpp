#pragma once
// The parameters of a soft soil in the Bekker–Wong terramechanics (docs/models.md "Soft soil
// (Bekker–Wong)"): the pressure–sinkage law (Bekker's, or Reece's form), the Mohr–Coulomb
// strength and the Janosi–Hanamoto shear deformation modulus, and the Wong–Reece stress
// distribution coefficients. A plain value, carried by SurfaceProperties (a surface, patch or
// DEM class that names a soil); models/tire/bekker_wong.hpp computes with it. SI units:
// k_c [N/m^(n+1)], k_φ [N/m^(n+2)], c [Pa], φ [rad], K [m]. The published tables and where
// each figure comes from: bekker_soils.cpp.

#include <optional>
#include <string_view>
#include <vector>

namespace hil::models {

struct BekkerSoil {
  /// Which pressure–sinkage law p(z) the plate (and the wheel) follows.
  enum class Law : unsigned char {
    bekker,  ///< p = (k_c/b + k_φ)·zⁿ (Bekker)
    reece,   ///< p = (c·k'_c + γ_s·b·k'_φ)·(z/b)ⁿ (Reece)
  };
  Law law = Law::bekker;
  double n = 0.0;      ///< sinkage exponent [-]
  double k_c = 0.0;    ///< Bekker cohesive modulus [N/m^(n+1)]
  double k_phi = 0.0;  ///< Bekker frictional modulus [N/m^(n+2)]
  // Reece's form only (dimensionless moduli, unit weight)
  double k_c_prime = 0.0;    ///< k'_c [-]
  double k_phi_prime = 0.0;  ///< k'_φ [-]
  double gamma_s = 0.0;      ///< γ_s: unit weight of the soil [N/m³]
  // Mohr–Coulomb strength and Janosi–Hanamoto shear
  double c = 0.0;    ///< cohesion [Pa]
  double phi = 0.0;  ///< angle of internal friction [rad]
  double K = 0.0;    ///< shear deformation modulus [m]; 0: shear fully mobilised at once
  // Wong–Reece: the maximum stress at θ_m = (c1 + c2·s)·θ1, the exit at θ2 = −c3·θ1
  double c1 = 0.43;  ///< [-] (Wong & Reece 1967 part I, as used by melanz/wheel-soil)
  double c2 = 0.32;  ///< [-] (idem)
  double c3 = 0.0;   ///< [-] exit angle behind bottom dead centre; 0: θ2 = 0 (Wong–Reece)

  /// True when the soil is set (a surface without a soil has n = 0).
  [[nodiscard]] constexpr bool valid() const noexcept { return n > 0.0; }
};

/// A named soil of the published tables.
struct NamedSoil {
  std::string_view name;    ///< lower snake case: "dry_sand"
  std::string_view source;  ///< where its figures come from
  BekkerSoil soil;
};

/// The soils hilsim ships (bekker_soils.cpp): dry sand, sandy loams, clayey soils, clays,
/// snows. Any thread.
[[nodiscard]] const std::vector<NamedSoil>& bekker_soils();

/// The soil named `name`, or nullopt. Any thread.
[[nodiscard]] std::optional<BekkerSoil> find_bekker_soil(std::string_view name);

}  // namespace hil::models
