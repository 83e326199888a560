#include "models/vehicle/vehicle_channels.hpp"

#include <cmath>

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace hil::models {

namespace {

using rt::Direction;

/// One vector component by index (x, y, z).
constexpr std::array<const char*, 3> kAxes{"x", "y", "z"};

}  // namespace

std::string VehicleChannels::axle_name(std::size_t axle, std::size_t axle_count) {
  if (axle_count == 2) return axle == 0 ? "front" : "rear";
  if (axle_count == 3) return std::array<const char*, 3>{"front", "middle", "rear"}[axle];
  return fmt::format("a{}", axle + 1);
}

std::string VehicleChannels::wheel_name(std::size_t wheel, std::size_t axle_count) {
  const char side = wheel % 2 == 0 ? 'l' : 'r';
  const std::size_t axle = wheel / 2;
  if (axle_count <= 3) return fmt::format("{}{}", axle_name(axle, axle_count)[0], side);  // fl, mr
  return fmt::format("{}{}", axle_name(axle, axle_count), side);
}

void VehicleChannels::add_input(rt::ChannelTable& table, std::string name, std::string unit,
                                double initial, InputField field, std::size_t index,
                                std::string description, std::pair<double, double> range) {
  inputs_.push_back({table.add({.name = std::move(name),
                                .unit = std::move(unit),
                                .direction = Direction::input,
                                .initial = initial,
                                .description = std::move(description),
                                .min = range.first,
                                .max = range.second}),
                     field, index});
}

rt::ChannelId VehicleChannels::add_output_channel(rt::ChannelTable& table, std::string name,
                                                  std::string unit, std::string description) {
  return table.add({.name = std::move(name),
                    .unit = std::move(unit),
                    .direction = Direction::output,
                    .description = std::move(description)});
}

void VehicleChannels::add_output(rt::ChannelTable& table, std::string name, std::string unit,
                                 OutputValue value, std::size_t index, std::string description) {
  computed_outputs_.push_back(
      {.id = add_output_channel(table, std::move(name), std::move(unit), std::move(description)),
       .value = value,
       .index = index});
}

void VehicleChannels::add_output(rt::ChannelTable& table, std::string name, std::string unit,
                                 OutputField field, std::size_t index, std::string description) {
  // Where the field lives in any VehicleOutputs: write() reads it there, without a call
  static const VehicleOutputs probe{};
  const auto* base = reinterpret_cast<const unsigned char*>(&probe);
  const auto* at = reinterpret_cast<const unsigned char*>(&field(probe, index));
  if (at < base || at + sizeof(double) > base + sizeof(VehicleOutputs)) {
    throw std::logic_error("vehicle output " + name + ": not a field of VehicleOutputs");
  }
  field_outputs_.push_back(
      {.id = add_output_channel(table, std::move(name), std::move(unit), std::move(description)),
       .offset = static_cast<std::uint32_t>(at - base)});
}

void VehicleChannels::add_output(rt::ChannelTable& table, const NamedOutput& output,
                                 std::size_t index) {
  if (output.field != nullptr) {
    add_output(table, output.name, output.unit, output.field, index, output.description);
  } else {
    add_output(table, output.name, output.unit, output.value, index, output.description);
  }
}

VehicleChannels::VehicleChannels(rt::ChannelTable& table, const VehicleParams& p) {
  const auto input = [&](std::string name, std::string unit, double initial, InputField field,
                         std::size_t index, std::string description,
                         std::pair<double, double> range = kAnyValue) {
    add_input(table, std::move(name), std::move(unit), initial, field, index,
              std::move(description), range);
  };
  const auto output = [&](std::string name, std::string unit, auto value, std::size_t index,
                          std::string description) {
    add_output(table, std::move(name), std::move(unit), value, index, std::move(description));
  };
  const std::size_t axles = p.axle_count;

  // ---- inputs ----
  for (std::size_t a = 0; a < axles; ++a) {
    if (!p.axles[a].steering.steered) continue;
    input(fmt::format("vehicle.steering.{}.command", axle_name(a, axles)), "rad", 0.0,
          [](VehicleInputs& in, std::size_t i) -> double& { return in.steering_command[i]; }, a,
          "central steering angle the servo follows, + left",
          {-p.axles[a].steering.servo.max_angle, p.axles[a].steering.servo.max_angle});
  }
  for (std::size_t w = 0; w < p.wheel_count(); ++w) {
    const std::string W = wheel_name(w, axles);
    input(fmt::format("env.road.friction.{}", W), "-", 1.0,
          [](VehicleInputs& in, std::size_t i) -> double& { return in.friction_scale[i]; }, w,
          "friction scale of this wheel's contact (RAVON §3.2; 1e-4: off the ground)", {0.0, 2.0});
  }
  input("vehicle.brake.command", "-", 0.0,
        [](VehicleInputs& in, std::size_t) -> double& { return in.brake; }, 0,
        "brake command 0..1 of each axle's max brake torque", {0.0, 1.0});
  input("vehicle.brake.park", "-", 0.0,
        [](VehicleInputs& in, std::size_t) -> double& { return in.park_brake; }, 0,
        "parking brake 0..1", {0.0, 1.0});
  for (std::size_t c = 0; c < 3; ++c) {
    input(fmt::format("env.road.normal.{}", kAxes[c]), "-", c == 2 ? 1.0 : 0.0,
          [](VehicleInputs& in, std::size_t i) -> double& {
            return in.road_normal[static_cast<int>(i)];
          },
          c, "road normal in heading axes (RAVON §3.2), used when the rig takes it from channels",
          {-1.0, 1.0});
    input(
        fmt::format("env.disturbance.force.{}", kAxes[c]), "N", 0.0,
        [](VehicleInputs& in, std::size_t i) -> double& {
          return in.external_force[static_cast<int>(i)];
        },
        c, "co-simulated force at the CG, world axes");
    input(
        fmt::format("env.disturbance.torque.{}", kAxes[c]), "N*m", 0.0,
        [](VehicleInputs& in, std::size_t i) -> double& {
          return in.external_torque[static_cast<int>(i)];
        },
        c, "co-simulated torque about the CG, body axes");
  }
  input("env.wind.speed", "m/s", 0.0,
        [](VehicleInputs& in, std::size_t) -> double& { return in.wind_speed; }, 0, "wind speed",
        {0.0, 120.0});
  input("env.wind.direction", "rad", 0.0,
        [](VehicleInputs& in, std::size_t) -> double& { return in.wind_direction; }, 0,
        "direction the wind blows from, counter-clockwise from east",
        {-2.0 * std::numbers::pi, 2.0 * std::numbers::pi});

  add_drive_channels(table, p);

  // ---- outputs ----
  struct WheelChannel {
    const char* name;
    const char* unit;
    const char* description;
  };
  static constexpr std::array<WheelChannel, 13> kWheel{{
      {"speed", "rad/s", "wheel spin ω"},
      {"angle", "rad", "wheel rotation since the start"},
      {"encoder", "-", "encoder counts"},
      {"steer_angle", "rad", "steering angle of the wheel, + left"},
      {"suspension_travel", "m", "spring compression ζ"},
      {"normal_force", "N", "tire normal force"},
      {"longitudinal_force", "N", "tire force along the wheel heading"},
      {"lateral_force", "N", "tire force along the wheel axis, + left"},
      {"slip", "-", "longitudinal slip, + driving"},
      {"slip_angle", "rad", "slip angle"},
      {"tire_deflection", "m", "tire deflection"},
      {"brake_torque", "N*m", "brake torque on the wheel"},
      {"sinkage", "m", "sinkage in a soft soil (Bekker–Wong), 0 elsewhere"},
  }};
  static constexpr std::array<const double& (*)(const WheelOutputs&), 13> kWheelValue{
      [](const WheelOutputs& o) -> const double& { return o.speed; },
      [](const WheelOutputs& o) -> const double& { return o.angle; },
      [](const WheelOutputs& o) -> const double& { return o.encoder_counts; },
      [](const WheelOutputs& o) -> const double& { return o.steer_angle; },
      [](const WheelOutputs& o) -> const double& { return o.suspension_travel; },
      [](const WheelOutputs& o) -> const double& { return o.normal_force; },
      [](const WheelOutputs& o) -> const double& { return o.longitudinal_force; },
      [](const WheelOutputs& o) -> const double& { return o.lateral_force; },
      [](const WheelOutputs& o) -> const double& { return o.slip; },
      [](const WheelOutputs& o) -> const double& { return o.slip_angle; },
      [](const WheelOutputs& o) -> const double& { return o.tire_deflection; },
      [](const WheelOutputs& o) -> const double& { return o.brake_torque; },
      [](const WheelOutputs& o) -> const double& { return o.sinkage; },
  };
  for (std::size_t w = 0; w < p.wheel_count(); ++w) {
    for (std::size_t c = 0; c < kWheel.size(); ++c) {
      // index packs (wheel, field) so that one captureless function serves them all
      const std::size_t index = w * kWheelValue.size() + c;
      output(
          fmt::format("vehicle.wheel.{}.{}", wheel_name(w, axles), kWheel[c].name), kWheel[c].unit,
          [](const VehicleOutputs& o, std::size_t i) -> const double& {
            return kWheelValue[i % kWheelValue.size()](o.wheels[i / kWheelValue.size()]);
          },
          index, kWheel[c].description);
    }
  }
  for (std::size_t c = 0; c < 3; ++c) {
    const char* axis = kAxes[c];
    const std::size_t k = c;
    output(
        fmt::format("vehicle.body.position.{}", axis), "m",
        [](const VehicleOutputs& o, std::size_t i) -> const double& {
          return o.position[static_cast<int>(i)];
        },
        k, "CG position, world ENU (x east, y north, z up)");
    output(
        fmt::format("vehicle.body.velocity.{}", axis), "m/s",
        [](const VehicleOutputs& o, std::size_t i) -> const double& {
          return o.velocity_world[static_cast<int>(i)];
        },
        k, "CG velocity, world ENU");
    output(
        fmt::format("vehicle.body.acceleration.{}", axis), "m/s^2",
        [](const VehicleOutputs& o, std::size_t i) -> const double& {
          return o.acceleration_body[static_cast<int>(i)];
        },
        k, "CG acceleration over the last step, body axes");
    output(
        fmt::format("vehicle.imu.accel.{}", axis), "m/s^2",
        [](const VehicleOutputs& o, std::size_t i) -> const double& {
          return o.imu.specific_force[static_cast<int>(i)];
        },
        k, "IMU specific force, sensor axes");
    output(
        fmt::format("vehicle.imu.gyro.{}", axis), "rad/s",
        [](const VehicleOutputs& o, std::size_t i) -> const double& {
          return o.imu.angular_rate[static_cast<int>(i)];
        },
        k, "IMU angular rate, sensor axes");
  }
  using Scalar = NamedOutput;
  static constexpr std::array<Scalar, 20> kScalars{{
      {"vehicle.body.speed", "m/s",
       [](const VehicleOutputs& o, std::size_t) {
         return std::hypot(o.velocity_body.x(), o.velocity_body.y());
       },
       "ground speed: magnitude of the CG velocity in the road plane (body x and y)"},
      {"vehicle.body.forward_speed", "m/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.velocity_body.x(); },
       "CG velocity along the body x axis"},
      {"vehicle.body.lateral_speed", "m/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.velocity_body.y(); },
       "CG velocity along the body y axis, + left"},
      {"vehicle.body.roll", "rad",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.roll; },
       "roll angle (ISO 8855 z-y-x)"},
      {"vehicle.body.pitch", "rad",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.pitch; },
       "pitch angle, + nose down"},
      {"vehicle.body.yaw", "rad",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.yaw; },
       "yaw angle from east, counter-clockwise"},
      {"vehicle.body.roll_rate", "rad/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.angular_velocity.x(); },
       "angular velocity about body x"},
      {"vehicle.body.pitch_rate", "rad/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.angular_velocity.y(); },
       "angular velocity about body y"},
      {"vehicle.body.yaw_rate", "rad/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.angular_velocity.z(); },
       "angular velocity about body z"},
      {"vehicle.gnss.latitude", "deg",
       [](const VehicleOutputs& o, std::size_t) -> const double& {
         return o.gnss.position.latitude_deg;
       },
       "GNSS latitude, WGS-84"},
      {"vehicle.gnss.longitude", "deg",
       [](const VehicleOutputs& o, std::size_t) -> const double& {
         return o.gnss.position.longitude_deg;
       },
       "GNSS longitude, WGS-84"},
      {"vehicle.gnss.altitude", "m",
       [](const VehicleOutputs& o, std::size_t) -> const double& {
         return o.gnss.position.altitude_m;
       },
       "GNSS height above the WGS-84 ellipsoid"},
      {"vehicle.gnss.velocity.east", "m/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& {
         return o.gnss.velocity_enu.x();
       },
       "GNSS velocity east"},
      {"vehicle.gnss.velocity.north", "m/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& {
         return o.gnss.velocity_enu.y();
       },
       "GNSS velocity north"},
      {"vehicle.gnss.velocity.up", "m/s",
       [](const VehicleOutputs& o, std::size_t) -> const double& {
         return o.gnss.velocity_enu.z();
       },
       "GNSS velocity up"},
      {"vehicle.gnss.fixes", "-",
       [](const VehicleOutputs& o, std::size_t) { return static_cast<double>(o.gnss.count); },
       "GNSS fixes so far (increments at the receiver rate)"},
      {"vehicle.aero.drag", "N",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.aero_force_body.x(); },
       "aerodynamic force along body x"},
      {"vehicle.aero.side_force", "N",
       [](const VehicleOutputs& o, std::size_t) -> const double& { return o.aero_force_body.y(); },
       "aerodynamic force along body y"},
      {"vehicle.inputs_rejected", "-",
       [](const VehicleOutputs& o, std::size_t) { return static_cast<double>(o.rejected_inputs); },
       "non-finite input values replaced by their neutral value since the start"},
      {"vehicle.safe_state", "-",
       [](const VehicleOutputs& o, std::size_t) { return o.safe_state ? 1.0 : 0.0; },
       "1 once a non-finite state or output latched the vehicle's safe state (at rest)"},
  }};
  for (const Scalar& s : kScalars) add_output(table, s, 0);
  for (std::size_t a = 0; a < axles; ++a) {
    if (!p.axles[a].steering.steered) continue;
    output(
        fmt::format("vehicle.steering.{}.angle", axle_name(a, axles)), "rad",
        [](const VehicleOutputs& o, std::size_t i) -> const double& { return o.steering_angle[i]; },
        a, "central steering angle of the servo (feedback)");
  }
}

void VehicleChannels::read(const rt::ChannelTable& table, VehicleInputs& in) const noexcept {
  for (const InputBinding& b : inputs_) b.field(in, b.index) = table.get(b.id);
}

std::size_t VehicleChannels::write(const VehicleOutputs& out,
                                   rt::ChannelTable& table) const noexcept {
  std::size_t non_finite = 0;
  const auto put = [&](rt::ChannelId id, double value) {
    const bool finite = std::isfinite(value);
    non_finite += finite ? 0 : 1;
    table.set(id, finite ? value : 0.0);  // no NaN leaves the vehicle (DESIGN.md §5)
  };
  const auto* base = reinterpret_cast<const unsigned char*>(&out);
  for (const FieldOutput& f : field_outputs_) {
    double value = 0.0;
    std::memcpy(&value, base + f.offset, sizeof value);  // the field add_output() found
    put(f.id, value);
  }
  for (const ComputedOutput& c : computed_outputs_) put(c.id, c.value(out, c.index));
  return non_finite;
}

}  // namespace hil::models
