#pragma once
// From the `bus` block (config/bus.proto) to the bus io/bus runs (io/bus/bus_spec.hpp):
// every region, channel, range and safe value checked against the rig's channels, one source
// per channel (a channel CAN feeds is not also a bus input), the mirror's peers and key file
// checked; each problem located at file:line:column. Setup phase; thread-safe.

#include <optional>
#include <string_view>
#include <vector>

#include "config/bus.pb.h"
#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/bus/bus_spec.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::config {

/// The bus of the block at `prefix` ("bus"), or errors; nullopt without regions. `table`
/// holds the rig's channels including the CAN buses' (check_can), `can` the buses' mapping.
[[nodiscard]] ConfigErrors check_bus(const Bus& bus, const rt::ChannelTable& table,
                                     const std::vector<io::can::CanBusSpec>& can,
                                     std::string_view prefix, const SourceMap& sources,
                                     std::optional<io::bus::BusSpec>& out);

}  // namespace hil::config
