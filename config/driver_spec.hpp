#pragma once
// The rig's `driver` block (config/driver.proto, docs/console.md "Driving") checked and turned
// into the mapping a driver in the loop uses (io/input/driver_mapping.hpp). Two steps, each
// reporting every problem located at file:line (e.g. "rig.pbtxt:80:46: driver.axes[1].dead_zone:
// 1.2 is out of range; expected 0..0.9"):
//   check_driver_fields  the block on its own: ranges, and what each device needs (a keyboard
//                        axis its keys, an evdev axis its raw range); from validate()
//   check_driver         the channels it names against the rig's (inputs, not driver.mode for an
//                        axis, a button's value within its channel's range), and the conversion
// Setup phase. Thread-safety: functions of their arguments.

#include <string_view>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/input/driver_mapping.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::config {

class Driver;  // config/driver.proto

/// Every problem of the block's fields, located at `prefix` ("driver").
[[nodiscard]] ConfigErrors check_driver_fields(const Driver& driver, std::string_view prefix,
                                               const SourceMap& sources);

/// The block's channels resolved against `table` (the rig's channels with the driver's,
/// io/input/driver_channels.hpp); `out` filled when there is no error. Assumes
/// check_driver_fields found nothing.
[[nodiscard]] ConfigErrors check_driver(const Driver& driver, const rt::ChannelTable& table,
                                        std::string_view prefix, const SourceMap& sources,
                                        io::input::DriverSpec& out);

}  // namespace hil::config
