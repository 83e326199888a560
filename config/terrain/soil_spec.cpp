#include "config/terrain/soil_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace hil::config {

namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

/// A value of `soil_parameters` with its range, or an error at its field.
struct Checked {
  const std::string& at;
  const SourceMap& sources;
  ConfigErrors& errors;

  void in(const char* field, bool has, double value, double& out, double lo, double hi,
          const char* range) const {
    if (!has) return;
    if (!(std::isfinite(value) && value >= lo && value <= hi)) {
      errors.push_back(sources.error(at + ".soil_parameters." + field,
                                     fmt::format("{} is out of range; expected {}", value, range)));
      return;
    }
    out = value;
  }
};

}  // namespace

models::BekkerSoil to_soil(const Surface& s, const std::string& at, const SourceMap& sources,
                           ConfigErrors& errors) {
  models::BekkerSoil soil;
  if (s.has_soil()) {
    if (const std::optional<models::BekkerSoil> named = models::find_bekker_soil(s.soil())) {
      soil = *named;
    } else {
      std::vector<std::string_view> names;
      for (const models::NamedSoil& n : models::bekker_soils()) names.push_back(n.name);
      errors.push_back(sources.error(at + ".soil", fmt::format("unknown soil \"{}\"; expected "
                                                               "one of {}",
                                                               s.soil(), fmt::join(names, ", "))));
      return {};
    }
  }
  if (!s.has_soil_parameters()) return soil;
  const BekkerSoil& p = s.soil_parameters();
  const Checked check{.at = at, .sources = sources, .errors = errors};
  constexpr double kBig = 1e12;
  check.in("n", p.has_n(), p.n(), soil.n, 1e-3, 5.0, "0.001..5");
  check.in("k_c", p.has_k_c(), p.k_c(), soil.k_c, 0.0, kBig, ">= 0 [N/m^(n+1)]");
  check.in("k_phi", p.has_k_phi(), p.k_phi(), soil.k_phi, 0.0, kBig, ">= 0 [N/m^(n+2)]");
  check.in("cohesion_pa", p.has_cohesion_pa(), p.cohesion_pa(), soil.c, 0.0, kBig, ">= 0 [Pa]");
  double phi_deg = soil.phi / kDegree;
  check.in("friction_angle_deg", p.has_friction_angle_deg(), p.friction_angle_deg(), phi_deg, 0.0,
           89.0, "0..89 [deg]");
  soil.phi = phi_deg * kDegree;
  check.in("shear_modulus_m", p.has_shear_modulus_m(), p.shear_modulus_m(), soil.K, 0.0, 10.0,
           "0..10 [m]");
  check.in("k_c_prime", p.has_k_c_prime(), p.k_c_prime(), soil.k_c_prime, 0.0, kBig, ">= 0");
  check.in("k_phi_prime", p.has_k_phi_prime(), p.k_phi_prime(), soil.k_phi_prime, 0.0, kBig,
           ">= 0");
  check.in("gamma_s", p.has_gamma_s(), p.gamma_s(), soil.gamma_s, 0.0, kBig, ">= 0 [N/m³]");
  check.in("c1", p.has_c1(), p.c1(), soil.c1, 0.0, 1.0, "0..1");
  check.in("c2", p.has_c2(), p.c2(), soil.c2, 0.0, 1.0, "0..1");
  check.in("c3", p.has_c3(), p.c3(), soil.c3, 0.0, 1.0, "0..1");
  if (p.has_k_c_prime() || p.has_k_phi_prime() || p.has_gamma_s()) {
    soil.law = models::BekkerSoil::Law::reece;
  }
  const bool stiff = soil.law == models::BekkerSoil::Law::reece
                         ? soil.c * soil.k_c_prime + soil.gamma_s * soil.k_phi_prime > 0.0
                         : soil.k_c + soil.k_phi > 0.0;
  if (!soil.valid()) {
    errors.push_back(sources.error(at + ".soil_parameters.n",
                                   "no sinkage exponent; expected n > 0 (or a soil by name)"));
  } else if (!stiff) {
    errors.push_back(sources.error(
        at + ".soil_parameters",
        soil.law == models::BekkerSoil::Law::reece
            ? "Reece's law with c·k_c_prime + gamma_s·k_phi_prime = 0: the soil carries nothing"
            : "k_c + k_phi = 0: the soil carries nothing"));
  }
  return soil;
}

}  // namespace hil::config
