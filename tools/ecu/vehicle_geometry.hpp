#pragma once
// What the virtual ECU knows about the vehicle it drives (its calibration): where the wheels
// are, which axles steer and how, the rolling radii at static load, and from those the
// kinematics of a turn: a path curvature κ at the reference point becomes a central steering
// angle per steered axle and a speed per wheel, every wheel rolling about the instantaneous
// centre (RAVON §3.3, models/steering/steering.hpp). Built in the setup phase; the queries are RT.

#include <array>
#include <cstddef>

#include "models/vehicle/capacities.hpp"
#include "models/vehicle/vehicle_params.hpp"

namespace hil::ecu {

class VehicleGeometry {
 public:
  /// Setup: reads the axles; the rolling radii come from the static wheel loads (throws
  /// std::invalid_argument when the parameters are not a valid vehicle).
  explicit VehicleGeometry(const models::VehicleParams& p);

  /// x of the line through the instantaneous centre, body axes from the CG [m]: where the
  /// first steered axle's Ackermann b puts it (front-type axle: x − b; an axle behind the
  /// centre: x + b); the rear axle's x without steering. The point of the centreline there
  /// moves along the body x axis in a steady turn: the path follower's reference point.
  [[nodiscard]] double reference_x() const noexcept { return x_c_; }

  /// RT: central angle d of steered axle `axle` for a turn of curvature κ about the
  /// reference point (+ left): tan d = κ·b, mirrored (−d) for an axle behind the centre.
  [[nodiscard]] double central_angle(std::size_t axle, double kappa) const noexcept;

  /// RT: wheel speed [rad/s] of wheel `w` when the reference point moves at `v` [m/s] on a
  /// turn of curvature κ: v·|c − p_w|·|κ| / r_w with c the instantaneous centre (a steered
  /// wheel rolls perpendicular to c − p_w); an unsteered wheel takes the longitudinal part.
  [[nodiscard]] double wheel_speed(std::size_t w, double v, double kappa) const noexcept;

  /// Largest |κ| the steering reaches (the servo's and the wheels' limits) [1/m].
  [[nodiscard]] double max_curvature() const noexcept { return kappa_max_; }
  /// Static rolling radius of wheel w [m].
  [[nodiscard]] double rolling_radius(std::size_t w) const noexcept { return radius_[w]; }
  [[nodiscard]] std::size_t wheel_count() const noexcept { return wheels_; }
  [[nodiscard]] std::size_t axle_count() const noexcept { return axles_; }
  [[nodiscard]] bool steered(std::size_t axle) const noexcept { return steered_[axle]; }
  /// Longitudinal distance between the first and last axle [m].
  [[nodiscard]] double wheelbase() const noexcept { return wheelbase_; }

 private:
  std::size_t axles_ = 0;
  std::size_t wheels_ = 0;
  double x_c_ = 0.0;
  double kappa_max_ = 0.0;
  double wheelbase_ = 0.0;
  std::array<bool, models::kMaxAxles> steered_{};
  std::array<bool, models::kMaxAxles> behind_{};
  std::array<double, models::kMaxAxles> b_{};
  std::array<double, models::kMaxWheels> x_{}, y_{}, radius_{};
};

}  // namespace hil::ecu
