#pragma once
// Surface classes shared by the terrain (what the ground is) and the tire/VTI model (how it
// grips): DESIGN.md §6. The tire branch defines the same types; keep them identical.

#include <cstdint>

namespace hil::models {

enum class Surface : std::uint8_t { dry, wet, snow, ice, sand, clay };

struct SurfaceProperties {
  Surface type = Surface::dry;
  double cone_index_pa = 0.0;
  double friction_scale = 1.0;
};

}  // namespace hil::models
