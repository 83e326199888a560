#pragma once
// Sinusoidal bumps: z = z0 + A_x·sin(2πx/λ_x) + A_y·sin(2πy/λ_y) (DESIGN.md §6 "bumps").
// A wavelength ≤ 0 (or an amplitude of 0) switches that direction off, so the same type
// gives washboard ripples across x, along y, or an egg-crate of both.

#include "models/terrain/terrain.hpp"

namespace hil::models {

struct BumpsTerrainParams {
  double amplitude_x = 0.0;   ///< A_x [m]
  double wavelength_x = 0.0;  ///< λ_x [m]; ≤ 0: no bumps along x
  double amplitude_y = 0.0;   ///< A_y [m]
  double wavelength_y = 0.0;  ///< λ_y [m]; ≤ 0: no bumps along y
  double z0 = 0.0;            ///< mean height [m]
  SurfaceProperties surface;
};

class BumpsTerrain final : public Terrain {
 public:
  explicit BumpsTerrain(const BumpsTerrainParams& p) noexcept;

  [[nodiscard]] double height(double x, double y) const noexcept override;
  [[nodiscard]] Eigen::Vector3d normal(double x, double y) const noexcept override;
  [[nodiscard]] SurfaceProperties surface(double x, double y) const noexcept override;

 private:
  BumpsTerrainParams p_;
  double kx_ = 0.0;  // wavenumbers 2π/λ [rad/m]; 0 when off
  double ky_ = 0.0;
  double ax_ = 0.0;  // amplitudes, 0 when off
  double ay_ = 0.0;
};

}  // namespace hil::models
