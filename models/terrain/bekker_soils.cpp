// The soils of the published tables (bekker_soil.hpp). Where each figure comes from:
//
// n, k_c, k_φ, c, φ: J. Y. Wong, "Theory of Ground Vehicles", 4th ed., Wiley 2008, the table
//   of terrain values (Bekker's pressure–sinkage and Mohr–Coulomb parameters of dry sand,
//   sandy loams, clayey soils, clays and snows), as quoted soil by soil, with the book as the
//   source, by Project Chrono's SCM terrain scripts (a public Soil_Params(terrain_id) table of
//   [k_φ, k_c, n, c, φ, K, …]; not checked against the printed book here). k_c in kN/m^(n+1)
//   and k_φ in kN/m^(n+2) there, ×1e3 here.
// K (Janosi–Hanamoto shear deformation modulus): NOT in that table of the book. The same
//   script says its K is not from the book ("parameters (but last 3)") and uses 2 cm for the
//   sands and loams, 3 cm for the soft clays and snows, 0.6 cm for the firm clays; hilsim
//   takes those as ASSUMED values (Wong's text gives K of a few mm to a few cm). LETE sand's
//   1.2 cm is quoted in the same script without the caveat; still unverified here.
// c1, c2 (Wong–Reece θ_m = (c1 + c2·s)·θ1): 0.43 and 0.32, the values of Wong & Reece (1967,
//   part I) as used by melanz/wheel-soil (a published Wong–Reece implementation); ASSUMED for
//   soils other than the sand they were fitted on. c3 = 0 (θ2 = 0, Wong–Reece's assumption).

#include <algorithm>
#include <numbers>

#include "models/terrain/bekker_soil.hpp"

namespace hil::models {

namespace {

constexpr double kKilo = 1e3;
constexpr double kDegree = std::numbers::pi / 180.0;
constexpr std::string_view kWong =
    "Wong, Theory of Ground Vehicles (2008), table of terrain values, as quoted by Project "
    "Chrono's SCM scripts; K assumed";

/// A Bekker-law soil from the table's units: k_c [kN/m^(n+1)], k_φ [kN/m^(n+2)], c [kPa],
/// φ [deg], K [m].
BekkerSoil bekker(double n, double k_c, double k_phi, double c, double phi_deg, double K) {
  return BekkerSoil{.n = n,
                    .k_c = k_c * kKilo,
                    .k_phi = k_phi * kKilo,
                    .c = c * kKilo,
                    .phi = phi_deg * kDegree,
                    .K = K};
}

}  // namespace

const std::vector<NamedSoil>& bekker_soils() {
  //                                                      n     k_c      k_φ       c     φ     K
  static const std::vector<NamedSoil> kSoils = {
      {"dry_sand", kWong, bekker(1.1, 0.99, 1528.43, 1.04, 28.0, 0.02)},           // LLL
      {"sandy_loam", kWong, bekker(0.7, 5.27, 1515.04, 1.72, 29.0, 0.02)},         // LLL, 15 %
      {"sandy_loam_wet", kWong, bekker(0.2, 2.56, 43.12, 1.38, 38.0, 0.02)},       // LLL, 22 %
      {"sandy_loam_hanamoto", kWong, bekker(0.5, 0.77, 51.91, 5.17, 11.0, 0.02)},  // 32 %
      {"clayey_soil", kWong, bekker(0.5, 13.19, 692.15, 4.14, 13.0, 0.02)},        // Thailand 38 %
      {"clayey_soil_wet", kWong, bekker(0.7, 16.03, 1262.53, 2.07, 10.0, 0.02)},   // 55 %
      {"heavy_clay", kWong, bekker(0.13, 12.70, 1555.95, 68.95, 34.0, 0.006)},     // WES 25 %
      {"heavy_clay_wet", kWong, bekker(0.11, 1.84, 103.27, 20.69, 6.0, 0.03)},     // WES 40 %
      {"lean_clay", kWong, bekker(0.2, 16.43, 1724.69, 68.95, 20.0, 0.006)},       // WES 22 %
      {"lean_clay_wet", kWong, bekker(0.15, 1.52, 119.61, 13.79, 11.0, 0.03)},     // WES 32 %
      {"lete_sand", kWong, bekker(0.79, 102.0, 5301.0, 1.3, 31.1, 0.012)},         // Wong
      {"snow", kWong, bekker(1.6, 4.37, 196.72, 1.03, 19.7, 0.03)},                // U.S.
      {"snow_harrison", kWong, bekker(1.6, 2.49, 245.90, 0.62, 23.2, 0.03)},       // U.S.
      {"snow_sweden", kWong, bekker(1.44, 10.55, 66.08, 6.0, 20.7, 0.03)},         // Sweden
  };
  return kSoils;
}

std::optional<BekkerSoil> find_bekker_soil(std::string_view name) {
  const std::vector<NamedSoil>& soils = bekker_soils();
  const auto it = std::ranges::find(soils, name, &NamedSoil::name);
  if (it == soils.end()) return std::nullopt;
  return it->soil;
}

}  // namespace hil::models
