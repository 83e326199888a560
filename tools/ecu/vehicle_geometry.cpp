#include "tools/ecu/vehicle_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "models/steering/steering.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle_model.hpp"

namespace hil::ecu {

VehicleGeometry::VehicleGeometry(const models::VehicleParams& p)
    : axles_(p.axle_count), wheels_(p.wheel_count()) {
  const models::FlatTerrain flat({});
  const models::VehicleModel model(p, flat);  // validates; computes the static spring loads
  wheelbase_ = p.axles[0].x - p.axles[axles_ - 1].x;
  x_c_ = p.axles[axles_ - 1].x;
  bool found = false;
  kappa_max_ = 1e9;
  for (std::size_t a = 0; a < axles_; ++a) {
    const models::AxleSteeringParams& s = p.axles[a].steering;
    steered_[a] = s.steered;
    behind_[a] = s.behind_turning_centre;
    b_[a] = s.ackermann.b;
    if (!s.steered) continue;
    if (!found) {
      x_c_ = s.behind_turning_centre ? p.axles[a].x + s.ackermann.b : p.axles[a].x - s.ackermann.b;
      found = true;
    }
    // The servo's command limit and the wheels' Ackermann limit, whichever is tighter
    models::AckermannParams ackermann = s.ackermann;
    ackermann.track = p.axles[a].track;
    const double d_max = std::min(s.servo.max_angle, models::max_central_angle(ackermann));
    kappa_max_ = std::min(kappa_max_, std::tan(d_max) / s.ackermann.b);
  }
  if (!found) kappa_max_ = 0.0;
  for (std::size_t w = 0; w < wheels_; ++w) {
    const models::AxleParams& axle = p.axles[w / 2];
    x_[w] = axle.x;
    y_[w] = (w % 2 == 0 ? 0.5 : -0.5) * axle.track;
    // Loaded radius at rest, as the model places the vehicle (models/vehicle/vehicle_model.cpp
    // rest_state): d/2 − (spring preload + unsprung weight) / tire stiffness
    const double load = model.spring_preload(w) + axle.unsprung_mass * p.gravity;
    radius_[w] = 0.5 * axle.tire.diameter - load / axle.tire.vertical_stiffness;
  }
}

double VehicleGeometry::central_angle(std::size_t axle, double kappa) const noexcept {
  if (!steered_[axle]) return 0.0;
  // RAVON §3.3: the axle's central angle points its centre at the turning centre, b ahead
  // of (or, mirrored, behind) the reference line: tan d = b/R = κ·b
  const double d = std::atan(kappa * b_[axle]);
  return behind_[axle] ? -d : d;
}

double VehicleGeometry::wheel_speed(std::size_t w, double v, double kappa) const noexcept {
  const std::size_t axle = w / 2;
  // Rigid planar motion about c = (x_c, 1/κ): |v_w| = |ω|·|c − p_w| with ω = v·κ, i.e.
  // v·√((κ·(x_w − x_c))² + (1 − κ·y_w)²), finite as κ → 0
  const double lateral = 1.0 - kappa * y_[w];
  double ground = v * lateral;
  if (steered_[axle]) {
    const double longitudinal = kappa * (x_[w] - x_c_);
    ground = v * std::sqrt(longitudinal * longitudinal + lateral * lateral);
  }
  return ground / radius_[w];
}

}  // namespace hil::ecu
