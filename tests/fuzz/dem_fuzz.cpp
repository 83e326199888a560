// libFuzzer target for the DEM loader (config/terrain/dem_loader.hpp): arbitrary bytes as an ESRI
// ASCII height grid — and, split at the first "\n%%\n", a surface-code grid — through
// parsing and grid construction, then terrain queries in and around the grid. Besides
// crashes and sanitizer reports it traps when a promise breaks: an error that does not start
// with "<file>:<line>: ", a grid outside the accepted limits, or a query that returns a
// non-finite height or a normal that is not an upward unit vector.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target dem_fuzz
//   cmake --build --preset fuzz --target run_dem_fuzz     # 60 s with the seed corpus

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/terrain/dem_loader.hpp"
#include "config/terrain/esri_ascii.hpp"
#include "models/terrain/terrain_dem.hpp"

namespace {

void require(bool promise) {
  if (!promise) __builtin_trap();
}

bool located(const std::string& message, std::string_view file) {
  const std::string prefix = std::string(file) + ":";
  if (message.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size();
  const std::size_t digits_start = i;
  while (i < message.size() && message[i] >= '0' && message[i] <= '9') ++i;
  return i > digits_start && message.compare(i, 2, ": ") == 0;
}

void query(const hil::models::DemTerrain& t) {
  const hil::models::GridGeometry& g = t.grid().geometry();
  const double w = g.cellsize * g.ncols;
  const double h = g.cellsize * g.nrows;
  for (const double fx : {-0.5, 0.0, 0.37, 0.5, 1.0, 1.5}) {
    for (const double fy : {-0.5, 0.0, 0.61, 1.0, 1.5}) {
      const double x = g.x0 + fx * w;
      const double y = g.y0 + fy * h;
      require(std::isfinite(t.height(x, y)));
      const Eigen::Vector3d n = t.normal(x, y);
      require(n.allFinite() && n.z() > 0.0 && std::abs(n.norm() - 1.0) < 1e-9);
      (void)t.surface(x, y);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find("\n%%\n");
  const std::string_view heights = input.substr(0, split);
  std::optional<hil::config::DemText> surfaces;
  if (split != std::string_view::npos) {
    surfaces = hil::config::DemText{"surfaces.asc", input.substr(split + 4)};
  }
  try {
    const hil::models::DemTerrain terrain(
        hil::config::dem_from_text({"heights.asc", heights}, surfaces));
    const hil::models::GridGeometry& g = terrain.grid().geometry();
    require(g.ncols >= 2 && g.nrows >= 2 && g.cellsize > 0.0);
    require(std::int64_t{g.ncols} * g.nrows <= hil::config::kMaxGridCells);
    query(terrain);
  } catch (const hil::config::DemError& e) {
    const std::string message = e.what();
    require(located(message, "heights.asc") || located(message, "surfaces.asc"));
  }
  return 0;
}
