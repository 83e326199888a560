#pragma once
// A surface's soft soil (config/terrain.proto `soil`, `soil_parameters`) to the Bekker–Wong
// parameters of models/terrain/bekker_soil.hpp: a soil of the published tables by name, the
// explicit parameters on top, every value checked and located. Setup phase; thread-safe.

#include <string>

#include "config/terrain.pb.h"
#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "models/terrain/bekker_soil.hpp"

namespace hil::config {

/// The soil of the surface block `s` at field `at` ("terrain.patches[0].surface"): an unset
/// BekkerSoil (valid() false) when it names none; errors appended for an unknown name (the
/// known ones listed) or a value out of range.
[[nodiscard]] models::BekkerSoil to_soil(const Surface& s, const std::string& at,
                                         const SourceMap& sources, ConfigErrors& errors);

}  // namespace hil::config
