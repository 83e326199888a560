#include "models/chassis/aero.hpp"

#include <cmath>

namespace hil::models {

AeroLoads aero_loads(const AeroParams& p, const Eigen::Vector3d& v_vehicle_body,
                     const Eigen::Vector3d& v_wind_body) noexcept {
  const Eigen::Vector3d v_rel = v_vehicle_body - v_wind_body;  // AutoSim §4.3: air relative
  const double V = std::sqrt(v_rel.x() * v_rel.x() + v_rel.y() * v_rel.y());  // horizontal airspeed
  const double q = 0.5 * p.air_density * V;                                   // ½ρ|v_rel|
  AeroLoads loads;
  // AutoSim §4.2.1 / §4.3 drag: F_x = −½ρ·C_d·A·|v_rel|·v_rel,x
  loads.force.x() = -q * p.drag_coefficient * p.frontal_area * v_rel.x();
  // AutoSim §4.3 drift (side) force: F_y = −½ρ·C_s·A_side·|v_rel|·v_rel,y = −½ρC_sA_s·V²·sin β
  loads.force.y() = -q * p.side_force_coefficient * p.side_area * v_rel.y();
  // AutoSim §4.3 yawing moment, with the lever x_cp as reference length: M_z = x_cp·F_y
  loads.moment.z() = p.x_cp * loads.force.y();
  return loads;
}

Eigen::Vector3d wind_velocity_earth(double speed, double from_direction) noexcept {
  // AutoSim §4.3.3 wind speed and direction; blowing FROM ψ_w means moving towards ψ_w + π
  return {-speed * std::cos(from_direction), -speed * std::sin(from_direction), 0.0};
}

Eigen::Vector3d earth_to_body_yaw(const Eigen::Vector3d& v_earth, double yaw) noexcept {
  const double c = std::cos(yaw);
  const double s = std::sin(yaw);
  return {c * v_earth.x() + s * v_earth.y(), -s * v_earth.x() + c * v_earth.y(), v_earth.z()};
}

}  // namespace hil::models
