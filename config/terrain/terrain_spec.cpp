#include "config/terrain/terrain_spec.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/terrain/dem_loader.hpp"
#include "config/terrain/soil_spec.hpp"
#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_dem.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"
#include "models/terrain/terrain_patches.hpp"

namespace hil::config {

namespace {

/// Surface properties of a block, or errors appended.
models::SurfaceProperties to_surface(const Surface& s, const std::string& at,
                                     const SourceMap& sources, ConfigErrors& errors) {
  models::SurfaceProperties p;
  if (s.has_type()) {
    if (const std::optional<models::Surface> type = models::parse_surface(s.type())) {
      p.type = *type;
    } else {
      errors.push_back(sources.error(
          at + ".type", fmt::format("unknown surface \"{}\"; expected dry, wet, snow, ice, "
                                    "sand or clay",
                                    s.type())));
    }
  }
  if (s.has_friction_scale()) {
    if (!(s.friction_scale() >= 0.0 && std::isfinite(s.friction_scale()))) {
      errors.push_back(
          sources.error(at + ".friction_scale",
                        fmt::format("{} is out of range; expected >= 0", s.friction_scale())));
    }
    p.friction_scale = s.friction_scale();
  }
  if (s.has_cone_index_pa()) p.cone_index_pa = s.cone_index_pa();
  p.soil = to_soil(s, at, sources, errors);  // Bekker–Wong instead of the VTI
  if (models::is_soil(p.type) && !p.soil.valid() &&
      !(p.cone_index_pa > 0.0 && std::isfinite(p.cone_index_pa))) {
    errors.push_back(sources.error(
        at + ".cone_index_pa",
        fmt::format("{} soil needs a cone index > 0 [Pa] (200e3 soft .. 1500e3 firm); got {}",
                    models::surface_name(p.type), p.cone_index_pa)));
  }
  return p;
}

/// A file named in the block at `field`, relative to the directory of the file that set it.
std::filesystem::path resolve(const std::string& name, const std::string& field,
                              const SourceMap& sources) {
  const std::filesystem::path path(name);
  if (path.is_absolute()) return path;
  const SourceLocation where = sources.locate(field);
  return std::filesystem::path(where.file).parent_path() / path;
}

}  // namespace

TerrainBuild build_terrain(const Terrain& t, std::string_view prefix, const SourceMap& sources) {
  TerrainBuild out;
  const std::string at(prefix);
  const models::SurfaceProperties surface =
      to_surface(t.surface(), at + ".surface", sources, out.errors);
  switch (t.kind_case()) {
    case Terrain::kIncline: {
      const Terrain::Incline& i = t.incline();
      if (!(std::abs(i.grade_percent()) <= 100.0)) {
        out.errors.push_back(sources.error(
            at + ".incline.grade_percent",
            fmt::format("{} is out of range; expected -100..100 (percent: 100·rise/run)",
                        i.grade_percent())));
      }
      out.terrain = std::make_shared<models::InclineTerrain>(
          models::InclineTerrainParams{.grade_percent = i.grade_percent(),
                                       .rise_direction = i.rise_direction(),
                                       .z0 = i.z0(),
                                       .surface = surface});
      break;
    }
    case Terrain::kBumps: {
      const Terrain::Bumps& b = t.bumps();
      out.terrain = std::make_shared<models::BumpsTerrain>(
          models::BumpsTerrainParams{.amplitude_x = b.amplitude_x(),
                                     .wavelength_x = b.wavelength_x(),
                                     .amplitude_y = b.amplitude_y(),
                                     .wavelength_y = b.wavelength_y(),
                                     .z0 = b.z0(),
                                     .surface = surface});
      break;
    }
    case Terrain::kDem: {
      const Terrain::Dem& d = t.dem();
      if (!d.has_heights()) {
        out.errors.push_back(sources.error(at + ".dem",
                                           "no heights file; expected heights: "
                                           "\"<file>.asc\""));
        break;
      }
      models::SurfaceTable table = models::default_surface_table();
      for (int i = 0; i < t.classes_size(); ++i) {
        const std::string field = fmt::format("{}.classes[{}]", at, i);
        if (!t.classes(i).has_type()) {
          out.errors.push_back(sources.error(field, "no type; expected the class it describes"));
          continue;
        }
        const models::SurfaceProperties c = to_surface(t.classes(i), field, sources, out.errors);
        table[static_cast<std::size_t>(c.type)] = c;
      }
      try {
        const std::filesystem::path heights = resolve(d.heights(), at + ".dem.heights", sources);
        std::optional<std::filesystem::path> codes;
        if (d.has_surfaces()) codes = resolve(d.surfaces(), at + ".dem.surfaces", sources);
        out.dem_heights = heights;
        if (codes) out.dem_surfaces = *codes;
        out.terrain = std::make_shared<models::DemTerrain>(
            config::load_dem(heights, codes, surface.type), table);
      } catch (const std::exception& e) {
        out.errors.push_back(sources.error(at + ".dem", e.what()));
      }
      break;
    }
    case Terrain::kFlat:
    case Terrain::KIND_NOT_SET:
      out.terrain = std::make_shared<models::FlatTerrain>(
          models::FlatTerrainParams{.z0 = t.flat().z0(), .surface = surface});
      break;
  }
  if (t.patches_size() > 0 && out.terrain) {
    std::vector<models::SurfacePatch> patches;
    for (int i = 0; i < t.patches_size(); ++i) {
      const Terrain::Patch& p = t.patches(i);
      const std::string field = fmt::format("{}.patches[{}]", at, i);
      if (!(p.x_min() <= p.x_max() && p.y_min() <= p.y_max())) {
        out.errors.push_back(sources.error(
            field, fmt::format("x {}..{}, y {}..{}: expected x_min <= x_max and y_min <= y_max",
                               p.x_min(), p.x_max(), p.y_min(), p.y_max())));
        continue;
      }
      patches.push_back(
          {.x_min = p.x_min(),
           .x_max = p.x_max(),
           .y_min = p.y_min(),
           .y_max = p.y_max(),
           .surface = to_surface(p.surface(), field + ".surface", sources, out.errors)});
    }
    if (out.errors.empty()) {
      out.terrain =
          std::make_shared<models::PatchedTerrain>(std::move(out.terrain), std::move(patches));
    }
  }
  if (!out.errors.empty()) out.terrain.reset();
  return out;
}

}  // namespace hil::config
