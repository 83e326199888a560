#pragma once
// Loads a DEM for DemTerrain (setup phase: reads files, allocates, throws DemError):
//   heights   ESRI ASCII grid (.asc) of ground heights [m] (config/terrain/esri_ascii.hpp)
//   surfaces  optional second .asc with the SAME header geometry (ncols, nrows, corner,
//             cellsize) whose values are integer surface codes:
//             0 dry, 1 wet, 2 snow, 3 ice, 4 sand, 5 clay (enum Surface order)
// Without a surface grid every cell is `fallback`. Errors read
// "<file>:<line>: <problem>; expected <what>".

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "models/terrain/dem_grid.hpp"

namespace hil::config {

struct DemText {
  std::string_view name;  ///< for messages, usually the file name
  std::string_view text;
};

/// Builds a grid from file contents already in memory (what load_dem and the fuzzer use).
[[nodiscard]] models::DemGrid dem_from_text(const DemText& heights,
                                            const std::optional<DemText>& surfaces = std::nullopt,
                                            models::Surface fallback = models::Surface::dry);

/// Reads and builds; a file that cannot be read is reported as "<file>: cannot read (<why>)".
[[nodiscard]] models::DemGrid load_dem(
    const std::filesystem::path& heights,
    const std::optional<std::filesystem::path>& surfaces = std::nullopt,
    models::Surface fallback = models::Surface::dry);

}  // namespace hil::config
