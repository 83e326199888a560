#pragma once
// The vehicle's inputs and outputs as channels (DESIGN.md §1). Setup registers every channel
// in the table (names below) and keeps their ids; per tick, read() fills VehicleInputs from
// the input channels and write() copies VehicleOutputs into the output channels — ids and
// function pointers only, no lookups, no allocation. Both are called by the RT thread.
//
// Names (wheel W: fl fr rl rr for two axles; fl fr ml mr rl rr for three; a1l a1r … for four;
// axle A: front rear / front middle rear / a1 … a4):
//   inputs   vehicle.steering.A.command [rad]     vehicle.brake.command [-]
//            vehicle.brake.park [-]
//            env.road.friction.W [-]              env.road.normal.{x,y,z} [-]
//            env.wind.speed [m/s]                 env.wind.direction [rad]
//            env.disturbance.force.{x,y,z} [N]    env.disturbance.torque.{x,y,z} [N·m]
//   outputs  vehicle.wheel.W.{speed, angle, encoder, steer_angle, suspension_travel,
//            normal_force, longitudinal_force, lateral_force, slip, slip_angle,
//            tire_deflection, brake_torque, sinkage}
//            vehicle.body.{position.x|y|z, velocity.x|y|z, forward_speed, lateral_speed,
//            roll, pitch, yaw, roll_rate, pitch_rate, yaw_rate, acceleration.x|y|z}
//            vehicle.steering.A.angle   vehicle.imu.{accel,gyro}.{x,y,z}
//            vehicle.gnss.{latitude, longitude, altitude, velocity.east|north|up, fixes}
//            vehicle.aero.{drag, side_force}   vehicle.inputs_rejected   vehicle.safe_state
//   drive    torque:     in  vehicle.wheel.W.drive_torque [N·m]
//            electric:   in  vehicle.wheel.W.speed_ref [rad/s]
//                        out vehicle.wheel.W.drive_torque, vehicle.wheel.W.motor.{current,
//                            rotor_speed, duty, voltage, power, torque, speed_ref,
//                            current_ref, voltage_ref, speed_integrator, current_integrator},
//                            vehicle.battery.{voltage, current, soc, extracted_charge,
//                            source_voltage, motoring_limit}, vehicle.drive.{converter_loss,
//                            chopper_power}
//                        in  vehicle.battery.external_voltage [V] (only with an external
//                            battery: ElectricDriveParams::external_battery)
//            combustion: in  vehicle.powertrain.{throttle, shift_up, shift_down, gear_request}
//                        out vehicle.wheel.W.drive_torque, vehicle.powertrain.{engine_speed,
//                            engine_torque, effective_throttle, gear, input_speed,
//                            propshaft_speed, speed_ratio, coupling_torque, shaft_torque}

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "models/vehicle/vehicle.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::models {

class VehicleChannels {
 public:
  /// Setup phase: adds the channels of a vehicle with `p`'s axles to `table` (throws if a
  /// name is taken).
  VehicleChannels(rt::ChannelTable& table, const VehicleParams& p);

  /// RT: input channels → `in` (only the fields that have a channel are written).
  void read(const rt::ChannelTable& table, VehicleInputs& in) const noexcept;
  /// RT: `out` → output channels.
  /// Returns how many outputs were not finite: each is written as 0, so that no NaN reaches a
  /// CAN frame; the caller latches the vehicle's safe state (DESIGN.md §5).
  [[nodiscard]] std::size_t write(const VehicleOutputs& out,
                                  rt::ChannelTable& table) const noexcept;

  /// "fl", "rr", "ml", "a3r", …
  [[nodiscard]] static std::string wheel_name(std::size_t wheel, std::size_t axle_count);
  /// "front", "rear", "middle", "a2", …
  [[nodiscard]] static std::string axle_name(std::size_t axle, std::size_t axle_count);

  [[nodiscard]] std::size_t input_count() const noexcept { return inputs_.size(); }
  [[nodiscard]] std::size_t output_count() const noexcept {
    return field_outputs_.size() + computed_outputs_.size();
  }

  /// An output: a field of VehicleOutputs (`index` selects a wheel or an axis) …
  using OutputField = const double& (*)(const VehicleOutputs&, std::size_t);
  /// … or a value computed from them (a count, a flag, a magnitude).
  using OutputValue = double (*)(const VehicleOutputs&, std::size_t);
  /// An entry of the tables of named outputs: one of `field` and `value`.
  struct NamedOutput {
    const char* name;
    const char* unit;
    OutputField field = nullptr;
    OutputValue value = nullptr;
    const char* description;
    constexpr NamedOutput(const char* n, const char* u, OutputField f, const char* d)
        : name(n), unit(u), field(f), description(d) {}
    constexpr NamedOutput(const char* n, const char* u, OutputValue v, const char* d)
        : name(n), unit(u), value(v), description(d) {}
  };

 private:
  using InputField = double& (*)(VehicleInputs&, std::size_t);
  struct InputBinding {
    rt::ChannelId id;
    InputField field;
    std::size_t index;
  };
  /// An output that is a field of VehicleOutputs: read at its offset (a load, no call). Eight
  /// bytes each, so that writing the outputs every tick touches little besides the values.
  struct FieldOutput {
    rt::ChannelId id;
    std::uint32_t offset;
  };
  /// An output computed from VehicleOutputs.
  struct ComputedOutput {
    rt::ChannelId id;
    OutputValue value;
    std::size_t index;
  };

  /// An input channel; `range`: what an operator may write (ChannelSpec::min, max).
  void add_input(rt::ChannelTable& table, std::string name, std::string unit, double initial,
                 InputField field, std::size_t index, std::string description,
                 std::pair<double, double> range = kAnyValue);
  static constexpr std::pair<double, double> kAnyValue{-std::numeric_limits<double>::infinity(),
                                                       std::numeric_limits<double>::infinity()};
  /// An output channel (the field's offset is found here, once).
  void add_output(rt::ChannelTable& table, std::string name, std::string unit, OutputField field,
                  std::size_t index, std::string description);
  void add_output(rt::ChannelTable& table, std::string name, std::string unit, OutputValue value,
                  std::size_t index, std::string description);
  void add_output(rt::ChannelTable& table, const NamedOutput& output, std::size_t index);
  static rt::ChannelId add_output_channel(rt::ChannelTable& table, std::string name,
                                          std::string unit, std::string description);
  /// The drive's channels (models/vehicle/vehicle_drive_channels.cpp): inputs and outputs of
  /// whichever drive the vehicle has.
  void add_drive_channels(rt::ChannelTable& table, const VehicleParams& p);

  std::vector<InputBinding> inputs_;
  std::vector<FieldOutput> field_outputs_;
  std::vector<ComputedOutput> computed_outputs_;
};

}  // namespace hil::models
