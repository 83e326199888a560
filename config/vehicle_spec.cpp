#include "config/vehicle_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/text/suggest.hpp"
#include "models/battery/battery_datasheet.hpp"
#include "models/drive/electric_drive_params.hpp"
#include "models/drive/lookup_table.hpp"
#include "models/drive/powertrain_params.hpp"
#include "models/vehicle/capacities.hpp"
#include "models/vehicle/vehicle_presets.hpp"

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

constexpr double kAmpereHour = 3600.0;  // [C]

/// Problems found while converting (names the schema cannot check by itself).
using Problems = std::vector<models::ParamProblem>;

void apply(const Drive::Electric& e, models::ElectricDriveParams& p, Problems& problems) {
  for (std::size_t j = 0; j < models::kMaxWheels; ++j) {
    models::DriveUnitParams& u = p.units[j];
    HIL_COPY(e.motor(), resistance, u.motor);
    HIL_COPY(e.motor(), inductance, u.motor);
    HIL_COPY(e.motor(), torque_constant, u.motor);
    HIL_COPY(e.motor(), rotor_inertia, u.motor);
    HIL_COPY(e.motor(), viscous_friction, u.motor);
    HIL_COPY(e.motor(), coulomb_friction, u.motor);
    HIL_COPY(e.gear(), ratio, u.gear);
    HIL_COPY(e.gear(), efficiency, u.gear);
    HIL_COPY(e.controller().speed(), kp, u.controller.speed);
    HIL_COPY(e.controller().speed(), ki, u.controller.speed);
    HIL_COPY(e.controller().current(), kp, u.controller.current);
    HIL_COPY(e.controller().current(), ki, u.controller.current);
    HIL_COPY(e.controller(), current_limit, u.controller);
  }
  if (e.has_controller_decimation()) {
    p.controller_decimation = static_cast<int>(e.controller_decimation());
  }
  if (e.has_converter_efficiency()) p.converter.efficiency = e.converter_efficiency();
  if (e.has_max_regen_current()) p.converter.max_regen_current = e.max_regen_current();
  if (e.has_derating_start_voltage()) p.derating.start_voltage = e.derating_start_voltage();
  if (!e.has_battery()) return;
  const Drive::Electric::Battery& b = e.battery();
  if (b.has_external()) {
    p.external_battery = b.external();
    Drive::Electric::Battery datasheet = b;
    datasheet.clear_external();
    if (datasheet.ByteSizeLong() == 0) return;  // only `external`: keep the preset's battery
  }
  models::BatteryDatasheet d = models::ravon_battery_datasheet();
  if (b.has_chemistry()) {
    if (b.chemistry() == "lead_acid") {
      d.chemistry = models::BatteryChemistry::lead_acid;
    } else if (b.chemistry() == "li_ion") {
      d.chemistry = models::BatteryChemistry::lithium_ion;
    } else if (b.chemistry() == "nimh") {
      d.chemistry = models::BatteryChemistry::nickel_metal_hydride;
    } else {
      problems.push_back({.field = "drive.electric.battery.chemistry",
                          .message = fmt::format("unknown chemistry \"{}\"; expected lead_acid, "
                                                 "li_ion or nimh",
                                                 b.chemistry())});
    }
  }
  HIL_COPY(b, full_voltage, d);
  HIL_COPY(b, exp_zone_voltage, d);
  if (b.has_exp_zone_charge()) d.exp_zone_charge = b.exp_zone_charge() * kAmpereHour;
  HIL_COPY(b, nominal_voltage, d);
  if (b.has_nominal_charge()) d.nominal_charge = b.nominal_charge() * kAmpereHour;
  HIL_COPY(b, nominal_current, d);
  if (b.has_capacity()) d.capacity = b.capacity() * kAmpereHour;
  HIL_COPY(b, internal_resistance, d);
  HIL_COPY(b, response_time, d);
  HIL_COPY(b, cutoff_voltage, d);
  try {
    p.battery = models::battery_params_from_datasheet(d);
  } catch (const std::exception& error) {
    problems.push_back({.field = "drive.electric.battery", .message = error.what()});
  }
}

void apply(const Drive::Combustion& c, models::PowertrainParams& p, Problems& problems) {
  if (c.has_preset()) {
    if (c.preset() == "hmmwv") {
      p = models::hmmwv_powertrain();
    } else if (c.preset() == "autosim_car") {
      p = models::autosim_car_powertrain();
    } else {
      problems.push_back({.field = "drive.combustion.preset",
                          .message = fmt::format("unknown powertrain \"{}\"; expected hmmwv or "
                                                 "autosim_car",
                                                 c.preset())});
    }
  }
  models::TransmissionParams& t = p.transmission;
  if (c.has_shift_mode()) {
    if (c.shift_mode() == "automatic" || c.shift_mode() == "manual") {
      t.mode =
          c.shift_mode() == "manual" ? models::ShiftMode::manual : models::ShiftMode::automatic;
    } else {
      problems.push_back({.field = "drive.combustion.shift_mode",
                          .message = fmt::format("unknown shift mode \"{}\"; expected automatic "
                                                 "or manual",
                                                 c.shift_mode())});
    }
  }
  if (c.forward_ratios_size() > 0) {
    if (static_cast<std::size_t>(c.forward_ratios_size()) > t.forward_ratios.size()) {
      problems.push_back(
          {.field = "drive.combustion.forward_ratios",
           .message = fmt::format("{} gears; expected at most {}", c.forward_ratios_size(),
                                  t.forward_ratios.size())});
    } else {
      t.forward_count = static_cast<std::size_t>(c.forward_ratios_size());
      for (std::size_t g = 0; g < t.forward_count; ++g) {
        t.forward_ratios[g] = c.forward_ratios(static_cast<int>(g));
      }
    }
  }
  HIL_COPY(c, reverse_ratio, t);
  HIL_COPY(c, final_drive, t);
  HIL_COPY(c, efficiency, t);
  HIL_COPY(c, upshift_speed, t);
  HIL_COPY(c, downshift_speed, t);
  HIL_COPY(c, shift_latency, t);
  if (c.full_load_torque_size() > 0) {
    std::vector<std::pair<double, double>> points;
    for (const Drive::Combustion::TorquePoint& point : c.full_load_torque()) {
      points.emplace_back(point.speed(), point.torque());
    }
    try {
      p.engine.full_load_torque = models::LookupTable(points);
    } catch (const std::exception& error) {
      problems.push_back({.field = "drive.combustion.full_load_torque", .message = error.what()});
    }
  }
  if (c.has_engine_inertia()) p.engine.inertia = c.engine_inertia();
  HIL_COPY(c, idle_speed, p.engine);
  HIL_COPY(c, rev_limit, p.engine);
}

void apply(const Drive& d, models::VehicleDriveParams& p, Problems& problems) {
  if (d.has_kind()) {
    if (d.kind() == "torque") {
      p.kind = models::DriveKind::torque;
    } else if (d.kind() == "electric") {
      p.kind = models::DriveKind::electric;
    } else if (d.kind() == "combustion") {
      p.kind = models::DriveKind::combustion;
    } else {
      problems.push_back({.field = "drive.kind",
                          .message = fmt::format("unknown drive \"{}\"; expected torque, "
                                                 "electric or combustion",
                                                 d.kind())});
    }
  }
  HIL_COPY(d, initial_soc, p);
  apply(d.electric(), p.electric, problems);
  apply(d.combustion(), p.combustion, problems);
}

/// The parameters and the problems the conversion itself found.
models::VehicleParams convert(const Vehicle& v, double dt, Problems& problems);

}  // namespace

std::string_view vehicle_preset_names() noexcept { return "ravon, hmmwv"; }

namespace {

models::VehicleParams convert(const Vehicle& v, double dt, Problems& problems) {
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
  apply(v.drive(), p.drive, problems);
  if (p.drive.kind == models::DriveKind::electric) {
    p.drive.electric.motor_count = p.wheel_count();  // one motor per wheel
  }
  p.dt = dt;
  return p;
}

}  // namespace

models::VehicleParams to_vehicle_params(const Vehicle& v, double dt) {
  Problems ignored;  // check_vehicle reports them
  return convert(v, dt, ignored);
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
  Problems problems;
  const models::VehicleParams params = convert(v, dt, problems);
  if (problems.empty()) problems = models::check(params);  // a failed conversion says enough
  for (const models::ParamProblem& problem : problems) {
    errors.push_back(sources.error(fmt::format("{}.{}", prefix, problem.field), problem.message));
  }
  return errors;
}

}  // namespace hil::config
