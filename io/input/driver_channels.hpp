#pragma once
// The channels of a driver in the loop (docs/console.md "Driving"): a rig with a `driver` block
// has them as inputs, written by the driver's controls through the command queue (recorded in
// commands.log) and read by the built-in ECU (tools/ecu/driver.hpp, HUMAN mode):
//   driver.steer     [-]  −1..1, + = left: the share of the vehicle's steering reach
//   driver.throttle  [-]  0..1
//   driver.brake     [-]  0..1
//   driver.mode      [-]  0 = AUTO (the ECU's path follower drives), 1 = HUMAN
// Thread-safety: constants and a pure function.

#include <string_view>
#include <vector>

#include "rt_core/channel_table.hpp"

namespace hil::io::input {

inline constexpr std::string_view kSteerChannel = "driver.steer";
inline constexpr std::string_view kThrottleChannel = "driver.throttle";
inline constexpr std::string_view kBrakeChannel = "driver.brake";
inline constexpr std::string_view kModeChannel = "driver.mode";

/// driver.mode's values.
inline constexpr double kModeAuto = 0.0;
inline constexpr double kModeHuman = 1.0;

/// The four channels' specifications (inputs, with their ranges), in the order above.
[[nodiscard]] std::vector<rt::ChannelSpec> driver_channel_specs();

/// Adds the driver channels to `table` (those it has already are left alone). Setup phase.
void add_driver_channels(rt::ChannelTable& table);

}  // namespace hil::io::input
