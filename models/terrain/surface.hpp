#pragma once
// Terrain surface classes and the per-(x, y) properties the terrain hands to the tire model
// (DESIGN.md §6 Environment; mavs-vti-model.md "MAVS VTI models").

#include <cstdint>
#include <optional>
#include <string_view>

#include "models/terrain/bekker_soil.hpp"

namespace hil::models {

/// The VTI surface classes of MAVS: four Pacejka road surfaces and two soils.
enum class Surface : std::uint8_t { dry, wet, snow, ice, sand, clay };

/// What the terrain provides at the contact point. Plain value, cheap to copy.
struct SurfaceProperties {
  Surface type = Surface::dry;
  /// Cone index CI [Pa]: soil strength for sand and clay (penetrometer reading averaged over
  /// the top 0.15 m). Ignored on the Pacejka surfaces. Typical: 200e3 (soft) .. 1500e3 (firm).
  double cone_index_pa = 0.0;
  /// Multiplies the surface's friction (Pacejka D, soil gross traction, lateral μ); 1 = as
  /// tabulated. Used for per-wheel friction overrides (channel env.road.friction.<wheel>).
  double friction_scale = 1.0;
  /// A soft soil by Bekker–Wong (docs/models.md "Soft soil (Bekker–Wong)"): when set
  /// (soil.valid()), the tire uses models/tire/bekker_contact.hpp instead of the VTI of `type`.
  BekkerSoil soil;
};

/// True for the soils, whose traction depends on cone index, load and deflection.
[[nodiscard]] constexpr bool is_soil(Surface s) noexcept {
  return s == Surface::sand || s == Surface::clay;
}

/// "dry", "wet", "snow", "ice", "sand", "clay".
[[nodiscard]] std::string_view surface_name(Surface s) noexcept;

/// Inverse of surface_name(); nullopt for anything else.
[[nodiscard]] std::optional<Surface> parse_surface(std::string_view name) noexcept;

}  // namespace hil::models
