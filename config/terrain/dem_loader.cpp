#include "config/terrain/dem_loader.hpp"

#include <cerrno>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include "config/terrain/esri_ascii.hpp"
#include "models/terrain/terrain_dem.hpp"

namespace hil::config {

using models::DemGrid;
using models::kSurfaceCount;
using models::Surface;
namespace {

std::string surface_code_problem(double v) {
  if (v == std::floor(v) && v >= 0.0 && v < static_cast<double>(kSurfaceCount)) return {};
  std::ostringstream s;
  s << "is " << v
    << "; expected an integer surface code 0..5 (0 dry, 1 wet, 2 snow, 3 ice, "
       "4 sand, 5 clay)";
  return s.str();
}

std::string height_problem(double v) {
  if (std::abs(v) <= models::kMaxDemHeight) return {};
  std::ostringstream s;
  s << "is " << v << "; expected a height within ±" << models::kMaxDemHeight << " m";
  return s.str();
}

std::string describe(const GridGeometry& g) {
  std::ostringstream s;
  s << "ncols " << g.ncols << ", nrows " << g.nrows << ", first cell centre (" << g.x0 << ", "
    << g.y0 << "), cellsize " << g.cellsize;
  return s.str();
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::error_code why(errno, std::generic_category());
    throw DemError(path.string() + ": cannot read (" + why.message() + ")");
  }
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw DemError(path.string() + ": read error");
  return text;
}

}  // namespace

DemGrid dem_from_text(const DemText& heights, const std::optional<DemText>& surfaces,
                      Surface fallback) {
  AsciiGrid z = parse_esri_ascii(heights.text, heights.name, height_problem);
  std::vector<Surface> codes;
  if (surfaces) {
    const AsciiGrid s = parse_esri_ascii(surfaces->text, surfaces->name, surface_code_problem);
    if (!(s.geometry == z.geometry)) {
      throw DemError(std::string(surfaces->name) + ":1: grid is " + describe(s.geometry) +
                     "; expected the geometry of " + std::string(heights.name) + ": " +
                     describe(z.geometry));
    }
    codes.reserve(s.values.size());
    for (const double v : s.values) codes.push_back(static_cast<Surface>(static_cast<int>(v)));
  }
  return {z.geometry, std::move(z.values), std::move(codes), fallback};
}

DemGrid load_dem(const std::filesystem::path& heights,
                 const std::optional<std::filesystem::path>& surfaces, Surface fallback) {
  const std::string heights_name = heights.string();
  const std::string heights_text = read_file(heights);
  if (!surfaces) return dem_from_text({heights_name, heights_text}, std::nullopt, fallback);
  const std::string surfaces_name = surfaces->string();
  const std::string surfaces_text = read_file(*surfaces);
  return dem_from_text({heights_name, heights_text}, DemText{surfaces_name, surfaces_text},
                       fallback);
}

}  // namespace hil::config
