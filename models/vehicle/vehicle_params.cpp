#include "models/vehicle/vehicle_params.hpp"

#include "models/drive/drive_validation.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <exception>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace hil::models {

namespace {

/// Collects "FIELD: must be EXPECTED (got VALUE)" problems.
class Checker {
 public:
  void require(bool ok, const std::string& field, std::string_view expected, double value) {
    if (!ok) {
      problems.push_back(
          {.field = field, .message = fmt::format("must be {} (got {})", expected, value)});
    }
  }
  void require_positive(double v, const std::string& field) {
    require(std::isfinite(v) && v > 0.0, field, "> 0", v);
  }
  void require_non_negative(double v, const std::string& field) {
    require(std::isfinite(v) && v >= 0.0, field, ">= 0", v);
  }
  std::vector<ParamProblem> problems;
};

void check_tire(Checker& c, const TireParams& t, const std::string& at) {
  c.require_positive(t.width, at + ".width");
  c.require_positive(t.diameter, at + ".diameter");
  c.require_positive(t.section_height, at + ".section_height");
  c.require_positive(t.vertical_stiffness, at + ".vertical_stiffness");
  c.require_non_negative(t.vertical_damping, at + ".vertical_damping");
  c.require_positive(t.spin_inertia, at + ".spin_inertia");
  c.require_non_negative(t.bearing_damping, at + ".bearing_damping");
  c.require_positive(t.crolla_gamma, at + ".crolla_gamma");
  c.require_positive(t.patch_stiffness_x_per_load, at + ".patch_stiffness_x_per_load");
  c.require_positive(t.patch_damping_x_per_load, at + ".patch_damping_x_per_load");
  c.require_positive(t.patch_stiffness_y_per_load, at + ".patch_stiffness_y_per_load");
  c.require_positive(t.patch_damping_y_per_load, at + ".patch_damping_y_per_load");
  c.require(std::isfinite(t.rolling_resistance) && t.rolling_resistance >= 0.0 &&
                t.rolling_resistance < 1.0,
            at + ".rolling_resistance", "in [0, 1)", t.rolling_resistance);
  c.require_positive(t.resistance_fade_speed, at + ".resistance_fade_speed");
}

void check_axle(Checker& c, const AxleParams& a, std::size_t index) {
  const std::string at = fmt::format("axles[{}]", index);
  c.require(std::isfinite(a.x), at + ".x", "finite", a.x);
  c.require_positive(a.track, at + ".track");
  c.require(std::isfinite(a.z), at + ".z", "finite", a.z);
  c.require_positive(a.unsprung_mass, at + ".unsprung_mass");
  c.require_positive(a.spring_rate, at + ".spring_rate");
  c.require_non_negative(a.damping, at + ".damping");
  check_tire(c, a.tire, at + ".tire");
  c.require_non_negative(a.brake.max_torque, at + ".brake.max_torque");
  c.require_non_negative(a.brake.park_torque, at + ".brake.park_torque");
  c.require_positive(a.brake.lock_frequency_hz, at + ".brake.lock_frequency_hz");
  c.require_positive(a.brake.lock_damping_ratio, at + ".brake.lock_damping_ratio");
  if (a.steering.steered) {
    const AxleSteeringParams& s = a.steering;
    c.require_positive(s.ackermann.b, at + ".steering.ackermann.b");
    c.require(s.ackermann.max_wheel_angle > 0.0 && s.ackermann.max_wheel_angle < 1.5,
              at + ".steering.ackermann.max_wheel_angle", "in (0, 1.5) rad",
              s.ackermann.max_wheel_angle);
    c.require_positive(s.servo.time_constant, at + ".steering.servo.time_constant");
    c.require_positive(s.servo.max_rate, at + ".steering.servo.max_rate");
    c.require_positive(s.servo.max_angle, at + ".steering.servo.max_angle");
  }
}

void check_drive(Checker& c, const VehicleParams& p) {
  const VehicleDriveParams& d = p.drive;
  try {
    switch (d.kind) {
      case DriveKind::torque:
        break;
      case DriveKind::electric:
        c.require(d.electric.motor_count == p.wheel_count(), "drive.electric.motor_count",
                  "the wheel count (one motor per wheel)",
                  static_cast<double>(d.electric.motor_count));
        c.require(d.initial_soc >= 0.0 && d.initial_soc <= 1.0, "drive.initial_soc", "in [0, 1]",
                  d.initial_soc);
        validate_electric_drive(d.electric);
        break;
      case DriveKind::combustion: {
        PowertrainParams pt = d.combustion;
        for (std::size_t w = 0; w < kMaxWheels; ++w) {
          pt.driven[w] = w < p.wheel_count() && p.axles[w / 2].driven;
        }
        validate_powertrain(pt);
        break;
      }
    }
  } catch (const std::exception& e) {  // the drive's own checks name the field in the text
    c.problems.push_back(
        {.field = d.kind == DriveKind::electric ? "drive.electric" : "drive.combustion",
         .message = e.what()});
  }
}

}  // namespace

std::vector<ParamProblem> check(const VehicleParams& p) {
  Checker checker;
  Checker& c = checker;
  c.require(p.axle_count >= 2 && p.axle_count <= kMaxAxles, "axle_count",
            fmt::format("in [2, {}]", kMaxAxles), static_cast<double>(p.axle_count));
  c.require_positive(p.sprung.mass, "sprung.mass");
  c.require(p.sprung.inertia.allFinite() && p.sprung.inertia.isApprox(p.sprung.inertia.transpose()),
            "sprung.inertia", "a finite symmetric matrix", p.sprung.inertia(0, 1));
  const double min_eigenvalue =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(p.sprung.inertia).eigenvalues().minCoeff();
  c.require(min_eigenvalue > 0.0, "sprung.inertia", "positive definite (smallest eigenvalue)",
            min_eigenvalue);
  for (std::size_t i = 0; i < std::min<std::size_t>(p.axle_count, kMaxAxles); ++i) {
    check_axle(c, p.axles[i], i);
    if (i > 0) {
      c.require(p.axles[i].x < p.axles[i - 1].x, fmt::format("axles[{}].x", i),
                fmt::format("behind axles[{}] (x < {})", i - 1, p.axles[i - 1].x), p.axles[i].x);
    }
  }
  if (p.axle_count >= 1 && p.axle_count <= kMaxAxles) {
    const std::size_t rear = p.axle_count - 1;
    c.require(p.axles[0].x > 0.0, "axles[0].x", "the front axle ahead of the CG (x > 0)",
              p.axles[0].x);
    c.require(p.axles[rear].x < 0.0, fmt::format("axles[{}].x", rear),
              "the rear axle behind the CG (x < 0)", p.axles[rear].x);
  }
  c.require_positive(p.aero.air_density, "aero.air_density");
  c.require_non_negative(p.aero.drag_coefficient, "aero.drag_coefficient");
  c.require_non_negative(p.aero.frontal_area, "aero.frontal_area");
  c.require_non_negative(p.aero.side_force_coefficient, "aero.side_force_coefficient");
  c.require_non_negative(p.aero.side_area, "aero.side_area");
  c.require_positive(p.gravity, "gravity");
  c.require(p.dt > 0.0 && p.dt <= 0.1, "dt", "in (0, 0.1] s", p.dt);
  c.require(p.max_step >= 1e-5 && p.max_step <= 0.01, "max_step", "in [1e-5, 0.01] s", p.max_step);
  const double h = p.dt > 0.0 && p.max_step > 0.0 ? p.dt / p.substeps() : p.dt;
  for (std::size_t i = 0; i < p.axle_count; ++i) {
    // The locked wheel rings at the brake's lock frequency: keep ω_n·h inside RK4's range
    const double wn_h = 2.0 * std::numbers::pi * p.axles[i].brake.lock_frequency_hz * h;
    c.require(wn_h <= 1.5, fmt::format("axles[{}].brake.lock_frequency_hz", i),
              fmt::format("<= {:.0f} Hz with RK4 steps of {} s (2*pi*f*h <= 1.5); lower it or "
                          "lower max_step",
                          1.5 / (2.0 * std::numbers::pi * h), h),
              p.axles[i].brake.lock_frequency_hz);
  }
  check_drive(c, p);
  c.require_positive(p.sensors.encoder.counts_per_revolution,
                     "sensors.encoder.counts_per_revolution");
  const GnssParams& gnss = p.sensors.gnss;
  c.require_positive(gnss.rate_hz, "sensors.gnss.rate_hz");
  c.require(std::abs(gnss.origin.latitude_deg) <= 90.0, "sensors.gnss.origin.latitude_deg",
            "in [-90, 90]", gnss.origin.latitude_deg);
  c.require(std::abs(gnss.origin.longitude_deg) <= 180.0, "sensors.gnss.origin.longitude_deg",
            "in [-180, 180]", gnss.origin.longitude_deg);
  c.require(std::isfinite(gnss.origin.altitude_m), "sensors.gnss.origin.altitude_m", "finite",
            gnss.origin.altitude_m);
  c.require_non_negative(gnss.horizontal_noise, "sensors.gnss.horizontal_noise");
  c.require_non_negative(gnss.vertical_noise, "sensors.gnss.vertical_noise");
  c.require_non_negative(gnss.velocity_noise, "sensors.gnss.velocity_noise");
  const ImuParams& imu = p.sensors.imu;
  c.require(imu.position.allFinite(), "sensors.imu.position", "finite", imu.position.norm());
  c.require_non_negative(imu.accel_noise, "sensors.imu.accel_noise");
  c.require_non_negative(imu.gyro_noise, "sensors.imu.gyro_noise");
  c.require_non_negative(imu.accel_bias_walk, "sensors.imu.accel_bias_walk");
  c.require_non_negative(imu.gyro_bias_walk, "sensors.imu.gyro_bias_walk");
  return std::move(checker.problems);
}

void validate(const VehicleParams& p) {
  const std::vector<ParamProblem> problems = check(p);
  if (!problems.empty()) {
    throw std::invalid_argument(
        fmt::format("vehicle parameter {}: {}", problems.front().field, problems.front().message));
  }
}

}  // namespace hil::models
