#include "models/vehicle_params.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace hil::models {

namespace {

/// Throws "FIELD: must be EXPECTED (got VALUE)" unless ok.
void require(bool ok, const std::string& field, std::string_view expected, double value) {
  if (!ok) {
    throw std::invalid_argument(
        fmt::format("vehicle parameter {}: must be {} (got {})", field, expected, value));
  }
}

void require_positive(double v, const std::string& field) {
  require(std::isfinite(v) && v > 0.0, field, "> 0", v);
}

void require_non_negative(double v, const std::string& field) {
  require(std::isfinite(v) && v >= 0.0, field, ">= 0", v);
}

void validate_tire(const TireParams& t, const std::string& at) {
  require_positive(t.width, at + ".width");
  require_positive(t.diameter, at + ".diameter");
  require_positive(t.section_height, at + ".section_height");
  require_positive(t.vertical_stiffness, at + ".vertical_stiffness");
  require_non_negative(t.vertical_damping, at + ".vertical_damping");
  require_positive(t.spin_inertia, at + ".spin_inertia");
  require_non_negative(t.bearing_damping, at + ".bearing_damping");
  require_positive(t.crolla_gamma, at + ".crolla_gamma");
  require_positive(t.patch_stiffness_x_per_load, at + ".patch_stiffness_x_per_load");
  require_positive(t.patch_damping_x_per_load, at + ".patch_damping_x_per_load");
  require_positive(t.patch_stiffness_y_per_load, at + ".patch_stiffness_y_per_load");
  require_positive(t.patch_damping_y_per_load, at + ".patch_damping_y_per_load");
  require(std::isfinite(t.rolling_resistance) && t.rolling_resistance >= 0.0 &&
              t.rolling_resistance < 1.0,
          at + ".rolling_resistance", "in [0, 1)", t.rolling_resistance);
  require_positive(t.resistance_fade_speed, at + ".resistance_fade_speed");
}

void validate_axle(const AxleParams& a, std::size_t index) {
  const std::string at = fmt::format("axles[{}]", index);
  require(std::isfinite(a.x), at + ".x", "finite", a.x);
  require_positive(a.track, at + ".track");
  require(std::isfinite(a.z), at + ".z", "finite", a.z);
  require_positive(a.unsprung_mass, at + ".unsprung_mass");
  require_positive(a.spring_rate, at + ".spring_rate");
  require_non_negative(a.damping, at + ".damping");
  validate_tire(a.tire, at + ".tire");
  require_non_negative(a.brake.max_torque, at + ".brake.max_torque");
  require_non_negative(a.brake.park_torque, at + ".brake.park_torque");
  require_positive(a.brake.lock_frequency_hz, at + ".brake.lock_frequency_hz");
  require_positive(a.brake.lock_damping_ratio, at + ".brake.lock_damping_ratio");
  if (a.steering.steered) {
    const AxleSteeringParams& s = a.steering;
    require_positive(s.ackermann.b, at + ".steering.ackermann.b");
    require(s.ackermann.max_wheel_angle > 0.0 && s.ackermann.max_wheel_angle < 1.5,
            at + ".steering.ackermann.max_wheel_angle", "in (0, 1.5) rad",
            s.ackermann.max_wheel_angle);
    require_positive(s.servo.time_constant, at + ".steering.servo.time_constant");
    require_positive(s.servo.max_rate, at + ".steering.servo.max_rate");
    require_positive(s.servo.max_angle, at + ".steering.servo.max_angle");
  }
}

}  // namespace

void validate(const VehicleParams& p) {
  require(p.axle_count >= 2 && p.axle_count <= kMaxAxles, "axle_count",
          fmt::format("in [2, {}]", kMaxAxles), static_cast<double>(p.axle_count));
  require_positive(p.sprung.mass, "sprung.mass");
  require(p.sprung.inertia.allFinite() && p.sprung.inertia.isApprox(p.sprung.inertia.transpose()),
          "sprung.inertia", "a finite symmetric matrix", p.sprung.inertia(0, 1));
  const double min_eigenvalue =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(p.sprung.inertia).eigenvalues().minCoeff();
  require(min_eigenvalue > 0.0, "sprung.inertia", "positive definite (smallest eigenvalue)",
          min_eigenvalue);
  for (std::size_t i = 0; i < p.axle_count; ++i) {
    validate_axle(p.axles[i], i);
    if (i > 0) {
      require(p.axles[i].x < p.axles[i - 1].x, fmt::format("axles[{}].x", i),
              fmt::format("behind axles[{}] (x < {})", i - 1, p.axles[i - 1].x), p.axles[i].x);
    }
  }
  require(p.axles[0].x > 0.0 && p.axles[p.axle_count - 1].x < 0.0, "axles[].x",
          "front axle ahead of the CG (x > 0), rear axle behind (x < 0)", p.axles[0].x);
  require_positive(p.aero.air_density, "aero.air_density");
  require_non_negative(p.aero.drag_coefficient, "aero.drag_coefficient");
  require_non_negative(p.aero.frontal_area, "aero.frontal_area");
  require_non_negative(p.aero.side_force_coefficient, "aero.side_force_coefficient");
  require_non_negative(p.aero.side_area, "aero.side_area");
  require_positive(p.gravity, "gravity");
  require(p.dt > 0.0 && p.dt <= 0.01, "dt", "in (0, 0.01] s", p.dt);
  require(p.substeps >= 1 && p.substeps <= 100, "substeps", "in [1, 100]", p.substeps);
  for (std::size_t i = 0; i < p.axle_count; ++i) {
    // The locked wheel rings at the brake's lock frequency: keep ω_n·h inside RK4's range
    const double wn_h =
        2.0 * std::numbers::pi * p.axles[i].brake.lock_frequency_hz * p.dt / p.substeps;
    require(wn_h <= 1.5, fmt::format("axles[{}].brake.lock_frequency_hz", i),
            fmt::format("≤ {:.0f} Hz at dt = {} s and {} substeps (2π·f·dt/substeps ≤ 1.5); lower "
                        "it or raise substeps",
                        1.5 * p.substeps / (2.0 * std::numbers::pi * p.dt), p.dt, p.substeps),
            p.axles[i].brake.lock_frequency_hz);
  }
  require_positive(p.sensors.encoder.counts_per_revolution,
                   "sensors.encoder.counts_per_revolution");
  require_positive(p.sensors.gnss.rate_hz, "sensors.gnss.rate_hz");
}

}  // namespace hil::models
