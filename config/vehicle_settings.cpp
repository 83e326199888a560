#include "config/vehicle_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "config/suggest.hpp"
#include "models/limits.hpp"
#include "models/vehicle_presets.hpp"

namespace hil::config {

namespace {

// The schema's field names are the parameters' names: copy a field when the file sets it.
#define HIL_COPY(message, field, target) \
  if ((message).has_##field()) (target).field = (message).field()

/// "; did you mean \"hmmwv\"?" when `name` is a plausible typo of a preset, else "".
std::string did_you_mean(std::string_view name) {
  const std::vector<std::string> presets{"ravon", "hmmwv"};
  const std::optional<std::string> close = closest_name(name, presets);
  return close ? fmt::format("; did you mean \"{}\"?", *close) : std::string();
}

std::optional<models::VehicleParams> preset(std::string_view name) {
  if (name == "ravon") return models::ravon_params();
  if (name == "hmmwv") return models::hmmwv_params();
  return std::nullopt;
}

void apply_vector(const Vector3& v, Eigen::Vector3d& out) {
  if (v.has_x()) out.x() = v.x();
  if (v.has_y()) out.y() = v.y();
  if (v.has_z()) out.z() = v.z();
}

void apply(const Axle::Tire& t, models::TireParams& p) {
  HIL_COPY(t, width, p);
  HIL_COPY(t, diameter, p);
  HIL_COPY(t, section_height, p);
  HIL_COPY(t, vertical_stiffness, p);
  HIL_COPY(t, vertical_damping, p);
  HIL_COPY(t, spin_inertia, p);
  HIL_COPY(t, bearing_damping, p);
  HIL_COPY(t, crolla_gamma, p);
  HIL_COPY(t, rolling_resistance, p);
  HIL_COPY(t, patch_stiffness_x_per_load, p);
  HIL_COPY(t, patch_damping_x_per_load, p);
  HIL_COPY(t, patch_stiffness_y_per_load, p);
  HIL_COPY(t, patch_damping_y_per_load, p);
  HIL_COPY(t, resistance_fade_speed, p);
}

void apply(const Axle::Steering& s, models::AxleSteeringParams& p) {
  HIL_COPY(s, steered, p);
  HIL_COPY(s, behind_turning_centre, p);
  HIL_COPY(s.ackermann(), b, p.ackermann);
  HIL_COPY(s.ackermann(), max_wheel_angle, p.ackermann);
  HIL_COPY(s.servo(), time_constant, p.servo);
  HIL_COPY(s.servo(), max_rate, p.servo);
  HIL_COPY(s.servo(), max_angle, p.servo);
}

void apply(const Axle& a, models::AxleParams& p) {
  HIL_COPY(a, x, p);
  HIL_COPY(a, track, p);
  HIL_COPY(a, z, p);
  HIL_COPY(a, unsprung_mass, p);
  HIL_COPY(a, spring_rate, p);
  HIL_COPY(a, damping, p);
  HIL_COPY(a, driven, p);
  apply(a.tire(), p.tire);
  apply(a.steering(), p.steering);
  HIL_COPY(a.brake(), max_torque, p.brake);
  HIL_COPY(a.brake(), park_torque, p.brake);
  HIL_COPY(a.brake(), lock_frequency_hz, p.brake);
  HIL_COPY(a.brake(), lock_damping_ratio, p.brake);
}

void apply(const Sensors& s, models::VehicleSensorParams& p) {
  const Sensors::Imu& imu = s.imu();
  apply_vector(imu.position(), p.imu.position);
  apply_vector(imu.accel_bias(), p.imu.accel_bias);
  apply_vector(imu.gyro_bias(), p.imu.gyro_bias);
  HIL_COPY(imu, accel_noise, p.imu);
  HIL_COPY(imu, gyro_noise, p.imu);
  HIL_COPY(imu, accel_bias_walk, p.imu);
  HIL_COPY(imu, gyro_bias_walk, p.imu);
  const Sensors::Gnss& gnss = s.gnss();
  HIL_COPY(gnss.origin(), latitude_deg, p.gnss.origin);
  HIL_COPY(gnss.origin(), longitude_deg, p.gnss.origin);
  HIL_COPY(gnss.origin(), altitude_m, p.gnss.origin);
  apply_vector(gnss.antenna(), p.gnss.antenna);
  HIL_COPY(gnss, rate_hz, p.gnss);
  HIL_COPY(gnss, horizontal_noise, p.gnss);
  HIL_COPY(gnss, vertical_noise, p.gnss);
  HIL_COPY(gnss, velocity_noise, p.gnss);
  HIL_COPY(s.encoder(), counts_per_revolution, p.encoder);
}

}  // namespace

std::string_view vehicle_preset_names() noexcept { return "ravon, hmmwv"; }

models::VehicleParams to_vehicle_params(const Vehicle& v, double dt) {
  models::VehicleParams p =
      preset(v.has_preset() ? v.preset() : "ravon").value_or(models::ravon_params());
  const Vehicle::Sprung& s = v.sprung();
  HIL_COPY(s, mass, p.sprung);
  if (s.has_ixx()) p.sprung.inertia(0, 0) = s.ixx();
  if (s.has_iyy()) p.sprung.inertia(1, 1) = s.iyy();
  if (s.has_izz()) p.sprung.inertia(2, 2) = s.izz();
  if (s.has_ixy()) p.sprung.inertia(0, 1) = p.sprung.inertia(1, 0) = s.ixy();
  if (s.has_ixz()) p.sprung.inertia(0, 2) = p.sprung.inertia(2, 0) = s.ixz();
  if (s.has_iyz()) p.sprung.inertia(1, 2) = p.sprung.inertia(2, 1) = s.iyz();
  const auto listed =
      std::min<std::size_t>(static_cast<std::size_t>(v.axles_size()), models::kMaxAxles);
  for (std::size_t i = 0; i < listed; ++i) apply(v.axles(static_cast<int>(i)), p.axles[i]);
  p.axle_count = std::max(p.axle_count, listed);
  const Vehicle::Aero& aero = v.aero();
  HIL_COPY(aero, air_density, p.aero);
  HIL_COPY(aero, drag_coefficient, p.aero);
  HIL_COPY(aero, frontal_area, p.aero);
  HIL_COPY(aero, side_force_coefficient, p.aero);
  HIL_COPY(aero, side_area, p.aero);
  HIL_COPY(aero, x_cp, p.aero);
  HIL_COPY(v, gravity, p);
  HIL_COPY(v, max_step, p);
  HIL_COPY(v, seed, p);
  HIL_COPY(v, road_normal_from_input, p);
  apply(v.sensors(), p.sensors);
  p.dt = dt;
  return p;
}

ConfigErrors check_vehicle(const Vehicle& v, double dt, std::string_view prefix,
                           const SourceMap& sources) {
  ConfigErrors errors;
  if (v.has_preset() && !preset(v.preset())) {
    errors.push_back(sources.error(fmt::format("{}.preset", prefix),
                                   fmt::format("unknown preset \"{}\"{} (presets: {})", v.preset(),
                                               did_you_mean(v.preset()), vehicle_preset_names())));
  }
  if (static_cast<std::size_t>(v.axles_size()) > models::kMaxAxles) {
    errors.push_back(sources.error(
        fmt::format("{}.axles[{}]", prefix, models::kMaxAxles),
        fmt::format("{} axles; expected at most {}", v.axles_size(), models::kMaxAxles)));
  }
  for (const models::ParamProblem& problem : models::check(to_vehicle_params(v, dt))) {
    errors.push_back(sources.error(fmt::format("{}.{}", prefix, problem.field), problem.message));
  }
  return errors;
}

}  // namespace hil::config
