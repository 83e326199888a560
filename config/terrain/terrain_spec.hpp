#pragma once
// From the `terrain` block (config/terrain.proto) to a models::Terrain. Setup phase (reads
// DEM files, allocates); thread-safe.

#include <filesystem>
#include <memory>
#include <string_view>

#include "config/terrain.pb.h"
#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "models/terrain/terrain.hpp"

namespace hil::config {

/// A terrain, or the reasons there is none.
struct TerrainBuild {
  std::shared_ptr<const models::Terrain> terrain;  ///< null exactly when errors is not empty
  ConfigErrors errors;
  std::filesystem::path dem_heights;  ///< the DEM files as resolved (empty: none)
  std::filesystem::path dem_surfaces;
};

/// Builds the terrain of the block at `prefix` ("terrain"): checks every value (surface
/// names, grades, cone indices, patch bounds) and loads DEM files, whose paths are relative
/// to the directory of the file that names them (found through `sources`); surface patches
/// go on top. DEM errors keep the
/// DEM file's own line ("site.asc:7: row 2 has 3 values; expected 4 (ncols)").
[[nodiscard]] TerrainBuild build_terrain(const Terrain& terrain, std::string_view prefix,
                                         const SourceMap& sources);

}  // namespace hil::config
