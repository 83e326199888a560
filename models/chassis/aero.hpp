#pragma once
// Aerodynamic loads and wind (AutoSim §4.3; docs/models.md "Aero and wind"). The relative
// air velocity v_rel = v_vehicle − v_wind (body frame, ISO 8855) gives drag along x, side
// force along y and a yaw moment about z at the centre of gravity. Lift is neglected, as the
// thesis assumes (§4.3, §4.3.3). Pure functions; RT-safe.

#include <Eigen/Core>

namespace hil::models {

struct AeroParams {
  double air_density = 1.225;           ///< ρ [kg/m³] (ISA sea level)
  double drag_coefficient = 0.35;       ///< C_d [-], on the frontal area
  double frontal_area = 2.2;            ///< A [m²]
  double side_force_coefficient = 0.8;  ///< C_s [-], on the side area
  double side_area = 4.0;               ///< A_side [m²]
  /// Centre of pressure ahead of the centre of gravity [m] (> 0: crosswind yaws the nose
  /// away from the wind, as AutoSim §4.3.2 describes). M_z = x_cp·F_y.
  double x_cp = 0.3;
};

struct AeroLoads {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();   ///< at the CG, body frame [N]
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();  ///< about the CG, body frame [N·m]
};

/// Loads from the vehicle's and the wind's velocity, both in the body frame [m/s]; only the
/// horizontal (x, y) components of v_rel act (AutoSim §4.3: wind in the horizontal plane).
[[nodiscard]] AeroLoads aero_loads(const AeroParams& p, const Eigen::Vector3d& v_vehicle_body,
                                   const Eigen::Vector3d& v_wind_body) noexcept;

/// Wind velocity in the earth frame from channels env.wind.speed [m/s] and
/// env.wind.direction [rad]: meteorological convention, the direction the wind blows FROM,
/// measured counter-clockwise from earth +x (ISO 8855). Direction 0: wind from +x, blowing
/// towards −x. (With x east, y north: compass bearing [deg] = 90 − direction·180/π.)
[[nodiscard]] Eigen::Vector3d wind_velocity_earth(double speed, double from_direction) noexcept;

/// Earth-frame horizontal vector into a body frame yawed by ψ (rotation by −ψ about z). The
/// assembly uses its full attitude instead when roll and pitch matter.
[[nodiscard]] Eigen::Vector3d earth_to_body_yaw(const Eigen::Vector3d& v_earth,
                                                double yaw) noexcept;

}  // namespace hil::models
