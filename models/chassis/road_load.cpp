#include "models/chassis/road_load.hpp"

#include <cmath>

namespace hil::models {

double normal_load_on_grade(double m, double g, double theta) noexcept {
  return m * g * std::cos(theta);  // N = m·g·cos θ (weight component normal to the road)
}

double grade_force(double m, double g, double theta) noexcept {
  return -m * g * std::sin(theta);  // F_grade = −m·g·sin θ; equals G'_x of RAVON eq. (1)
}

Eigen::Vector3d inclination_force(double m, double g, const Eigen::Vector3d& road_normal) noexcept {
  // RAVON §3.2 eq. (1): G' = G·(N_x, N_y, 1 − N_z), G = m·g
  const double G = m * g;
  return {G * road_normal.x(), G * road_normal.y(), G * (1.0 - road_normal.z())};
}

}  // namespace hil::models
