// The drive's part of VehicleChannels (models/vehicle/vehicle_channels.hpp): what the ECU commands
// and what the drive reports, for the drive the vehicle has.

#include <fmt/format.h>

#include <array>
#include <limits>

#include "models/vehicle/vehicle_channels.hpp"

namespace hil::models {

namespace {

using Named = VehicleChannels::NamedOutput;

/// index = wheel·kCount + field, so that one captureless function serves every wheel.
constexpr std::size_t kMotorFields = 11;
constexpr std::array<Named, kMotorFields> kMotor{{
    {"current", "A",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].current;
     },
     "armature current"},
    {"rotor_speed", "rad/s",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].rotor_speed;
     },
     "rotor speed (N × wheel speed)"},
    {"duty", "-",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].duty;
     },
     "PWM duty held this tick"},
    {"voltage", "V",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].voltage;
     },
     "terminal voltage duty·V_bus"},
    {"power", "W",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].electrical_power;
     },
     "electrical power u·i at the motor terminals"},
    {"torque", "N*m",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].shaft_torque;
     },
     "shaft torque k·i − friction"},
    {"speed_ref", "rad/s",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].speed_ref;
     },
     "rotor speed reference of the speed loop"},
    {"current_ref", "A",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].current_ref;
     },
     "current reference of the current loop"},
    {"voltage_ref", "V",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].voltage_ref;
     },
     "voltage reference of the current loop"},
    {"speed_integrator", "A",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].speed_integrator;
     },
     "speed PI integrator"},
    {"current_integrator", "V",
     [](const VehicleOutputs& o, std::size_t w) -> const double& {
       return o.electric.motors[w].current_integrator;
     },
     "current PI integrator"},
}};

constexpr std::array<Named, 8> kElectric{{
    {"vehicle.battery.voltage", "V",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.electric.battery.voltage;
     },
     "battery terminal voltage"},
    {"vehicle.battery.current", "A",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.electric.battery.current;
     },
     "battery current, + discharging"},
    {"vehicle.battery.soc", "-",
     [](const VehicleOutputs& o, std::size_t) -> const double& { return o.electric.battery.soc; },
     "state of charge"},
    {"vehicle.battery.extracted_charge", "C",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.electric.battery.extracted_charge;
     },
     "extracted charge it = ∫i dt"},
    {"vehicle.battery.source_voltage", "V",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.electric.battery.source_voltage;
     },
     "controlled source voltage E of the generic model"},
    {"vehicle.battery.motoring_limit", "-",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.electric.battery.motoring_limit_fraction;
     },
     "fraction of I_max allowed for motoring (derating near cut-off)"},
    {"vehicle.drive.converter_loss", "W",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.electric.converter_loss;
     },
     "H-bridge losses"},
    {"vehicle.drive.chopper_power", "W",
     [](const VehicleOutputs& o, std::size_t) -> const double& { return o.electric.chopper_power; },
     "regeneration the battery may not take, burnt"},
}};

constexpr std::array<Named, 9> kPowertrain{{
    {"vehicle.powertrain.engine_speed", "rad/s",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.powertrain.engine_speed;
     },
     "engine speed"},
    {"vehicle.powertrain.engine_torque", "N*m",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.powertrain.engine_torque;
     },
     "engine torque"},
    {"vehicle.powertrain.effective_throttle", "-",
     [](const VehicleOutputs& o, std::size_t) -> const double& { return o.powertrain.throttle; },
     "throttle after idle governor and rev limiter"},
    {"vehicle.powertrain.gear", "-",
     [](const VehicleOutputs& o, std::size_t) { return static_cast<double>(o.powertrain.gear); },
     "gear: -1 reverse, 0 neutral, 1..n"},
    {"vehicle.powertrain.input_speed", "rad/s",
     [](const VehicleOutputs& o, std::size_t) -> const double& { return o.powertrain.input_speed; },
     "gearbox input speed"},
    {"vehicle.powertrain.propshaft_speed", "rad/s",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.powertrain.propshaft_speed;
     },
     "propshaft speed"},
    {"vehicle.powertrain.speed_ratio", "-",
     [](const VehicleOutputs& o, std::size_t) -> const double& { return o.powertrain.speed_ratio; },
     "torque converter speed ratio"},
    {"vehicle.powertrain.coupling_torque", "N*m",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.powertrain.coupling_torque;
     },
     "torque into the gearbox input"},
    {"vehicle.powertrain.shaft_torque", "N*m",
     [](const VehicleOutputs& o, std::size_t) -> const double& {
       return o.powertrain.shaft_torque;
     },
     "driveline torque at the propshaft"},
}};

}  // namespace

void VehicleChannels::add_drive_channels(rt::ChannelTable& table, const VehicleParams& p) {
  const std::size_t axles = p.axle_count;
  const DriveKind kind = p.drive.kind;
  for (std::size_t w = 0; w < p.wheel_count(); ++w) {
    const std::string W = wheel_name(w, axles);
    if (kind == DriveKind::torque) {
      add_input(
          table, fmt::format("vehicle.wheel.{}.drive_torque", W), "N*m", 0.0,
          [](VehicleInputs& in, std::size_t i) -> double& { return in.drive_torque[i]; }, w,
          "drive torque on the wheel, + forward");
      continue;
    }
    add_output(
        table, fmt::format("vehicle.wheel.{}.drive_torque", W), "N*m",
        [](const VehicleOutputs& o, std::size_t i) -> const double& {
          return o.wheels[i].drive_torque;
        },
        w, "drive torque on the wheel, + forward");
    if (kind != DriveKind::electric) continue;
    add_input(
        table, fmt::format("vehicle.wheel.{}.speed_ref", W), "rad/s", 0.0,
        [](VehicleInputs& in, std::size_t i) -> double& { return in.speed_ref[i]; }, w,
        "reference wheel speed from the ECU, + forward");
    for (std::size_t f = 0; f < kMotorFields; ++f) {
      const std::size_t index = w * kMotorFields + f;
      add_output(
          table, fmt::format("vehicle.wheel.{}.motor.{}", W, kMotor[f].name), kMotor[f].unit,
          [](const VehicleOutputs& o, std::size_t i) -> const double& {
            return kMotor[i % kMotorFields].field(o, i / kMotorFields);
          },
          index, kMotor[f].description);
    }
  }
  if (kind == DriveKind::electric) {
    for (const Named& n : kElectric) add_output(table, n, 0);
  }
  if (kind == DriveKind::electric && p.drive.electric.external_battery) {
    // Starts at the built-in battery's rest voltage, so the vehicle can move before the
    // co-simulator's first value arrives (docs/models.md "External battery")
    add_input(
        table, "vehicle.battery.external_voltage", "V",
        electric_drive_rest_voltage(p.drive.electric, p.drive.initial_soc),
        [](VehicleInputs& in, std::size_t) -> double& { return in.external_battery_voltage; }, 0,
        "DC bus voltage from the external (co-simulated) battery that reads "
        "vehicle.battery.current");
  }
  if (kind == DriveKind::combustion) {
    add_input(table, "vehicle.powertrain.throttle", "-", 0.0,
              [](VehicleInputs& in, std::size_t) -> double& { return in.throttle; }, 0,
              "accelerator 0..1", {0.0, 1.0});
    add_input(table, "vehicle.powertrain.shift_up", "-", 0.0,
              [](VehicleInputs& in, std::size_t) -> double& { return in.shift_up; }, 0,
              "up-shift lever (> 0.5 pressed; a press shifts once)", {0.0, 1.0});
    add_input(table, "vehicle.powertrain.shift_down", "-", 0.0,
              [](VehicleInputs& in, std::size_t) -> double& { return in.shift_down; }, 0,
              "down-shift lever (> 0.5 pressed; a press shifts once)", {0.0, 1.0});
    add_input(
        table, "vehicle.powertrain.gear_request", "-", std::numeric_limits<double>::quiet_NaN(),
        [](VehicleInputs& in, std::size_t) -> double& { return in.gear_request; }, 0,
        "gear wanted: manual −1 R, 0 N, 1..n; automatic −1 R, 0 N, 1 D; NaN none");
    for (const Named& n : kPowertrain) add_output(table, n, 0);
  }
}

}  // namespace hil::models
