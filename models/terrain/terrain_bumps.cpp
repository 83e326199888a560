#include "models/terrain/terrain_bumps.hpp"

#include <cmath>
#include <numbers>

namespace hil::models {
namespace {

double wavenumber(double wavelength) noexcept {
  return wavelength > 0.0 ? 2.0 * std::numbers::pi / wavelength : 0.0;
}

}  // namespace

BumpsTerrain::BumpsTerrain(const BumpsTerrainParams& p) noexcept
    : p_(p),
      kx_(wavenumber(p.wavelength_x)),
      ky_(wavenumber(p.wavelength_y)),
      ax_(kx_ > 0.0 ? p.amplitude_x : 0.0),
      ay_(ky_ > 0.0 ? p.amplitude_y : 0.0) {}

double BumpsTerrain::height(double x, double y) const noexcept {
  // DESIGN.md §6 bumps: z = z0 + A_x·sin(k_x·x) + A_y·sin(k_y·y), k = 2π/λ
  return p_.z0 + ax_ * std::sin(kx_ * x) + ay_ * std::sin(ky_ * y);
}

Eigen::Vector3d BumpsTerrain::normal(double x, double y) const noexcept {
  // ∂z/∂x = A_x·k_x·cos(k_x·x), ∂z/∂y = A_y·k_y·cos(k_y·y); n from the gradient (terrain.hpp)
  return normal_from_gradient(ax_ * kx_ * std::cos(kx_ * x), ay_ * ky_ * std::cos(ky_ * y));
}

SurfaceProperties BumpsTerrain::surface(double /*x*/, double /*y*/) const noexcept {
  return p_.surface;
}

}  // namespace hil::models
