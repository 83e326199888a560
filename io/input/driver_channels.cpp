#include "io/input/driver_channels.hpp"

#include <string>

namespace hil::io::input {

std::vector<rt::ChannelSpec> driver_channel_specs() {
  const auto input = [](std::string_view name, double min, double max, const char* what) {
    return rt::ChannelSpec{.name = std::string(name),
                           .unit = "-",
                           .direction = rt::Direction::input,
                           .initial = 0.0,
                           .description = what,
                           .min = min,
                           .max = max};
  };
  return {input(kSteerChannel, -1.0, 1.0,
                "driver's steering: share of the steering's reach, + = left (HUMAN mode)"),
          input(kThrottleChannel, 0.0, 1.0, "driver's throttle pedal (HUMAN mode)"),
          input(kBrakeChannel, 0.0, 1.0, "driver's brake pedal (HUMAN mode)"),
          input(kModeChannel, 0.0, 1.0,
                "who drives: 0 AUTO (the ECU's path follower), 1 HUMAN (the driver's controls)")};
}

void add_driver_channels(rt::ChannelTable& table) {
  for (rt::ChannelSpec& spec : driver_channel_specs()) {
    if (!table.find(spec.name)) (void)table.add(std::move(spec));
  }
}

}  // namespace hil::io::input
