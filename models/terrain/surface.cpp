#include "models/terrain/surface.hpp"

#include <array>
#include <utility>

namespace hil::models {

namespace {
constexpr std::array<std::pair<Surface, std::string_view>, 6> kNames = {{
    {Surface::dry, "dry"},
    {Surface::wet, "wet"},
    {Surface::snow, "snow"},
    {Surface::ice, "ice"},
    {Surface::sand, "sand"},
    {Surface::clay, "clay"},
}};
}  // namespace

std::string_view surface_name(Surface s) noexcept {
  for (const auto& [surface, name] : kNames) {
    if (surface == s) return name;
  }
  return "unknown";
}

std::optional<Surface> parse_surface(std::string_view name) noexcept {
  for (const auto& [surface, text] : kNames) {
    if (text == name) return surface;
  }
  return std::nullopt;
}

}  // namespace hil::models
