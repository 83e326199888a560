#pragma once
// ESRI ASCII raster (".asc", also "Arc/Info ASCII Grid"; GDAL driver AAIGrid) — the plain-text
// DEM format that GIS tools (QGIS, GDAL `gdal_translate -of AAIGrid`, ArcGIS) write:
//
//   ncols         4             number of columns (west → east)
//   nrows         3             number of rows (north → south in the data block)
//   xllcorner     100.0         x of the grid's lower-left corner, or xllcenter: of the centre
//   yllcorner     200.0         of the lower-left cell (same for y)
//   cellsize      0.5           square cells [m]
//   NODATA_value  -9999         optional
//   1.0 1.1 1.2 1.3             first row = northernmost
//   ...
//
// Setup phase only (allocates, throws). Stricter than GDAL in one respect: each data row is
// on its own line, so that a wrong count is reported at the line where it happens. Header
// keys are case-insensitive and may come in any order; dx/dy (non-square cells) are rejected.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/terrain/grid_geometry.hpp"

namespace hil::config {

/// Error in a DEM file: what() is "<file>:<line>: <what is wrong>; expected <what>".
class DemError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using models::GridGeometry;

struct AsciiGrid {
  GridGeometry geometry;
  /// Row-major, SOUTH row first (row r at y0 + r·cellsize), so index = r·ncols + c.
  std::vector<double> values;
};

/// Checks one data value; returns "" when fine, otherwise what is wrong with it (the parser
/// adds file, line, row and position).
using ValueCheck = std::function<std::string(double)>;

/// Largest grid accepted (cells); a 1 m DEM of 8 km × 8 km fits.
inline constexpr std::int64_t kMaxGridCells = std::int64_t{1} << 26;
using models::kMaxCellsize;
using models::kMinCellsize;

/// Parses `text` read from `name` (used in messages). Rejects NODATA cells, non-finite
/// values, and values `check` refuses. Throws DemError.
[[nodiscard]] AsciiGrid parse_esri_ascii(std::string_view text, std::string_view name,
                                         const ValueCheck& check = {});

}  // namespace hil::config
