#pragma once
// From the `can` block (config/can.proto) to the bus specifications io/can runs
// (io/can/mapping/can_bus_spec.hpp): DBC files loaded relative to the file that names them, URIs
// parsed, and every message, signal and channel name resolved against the rig's channels,
// each problem located at file:line:column. Setup phase; thread-safe.

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "models/vehicle/vehicle_params.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::config {

class Can;  // config/can.proto

/// Adds the channels every rig has besides its buses' own (the vehicle's, when there is one)
/// to `table`: the universe the mapping's channel names must come from. Returns the vehicle's
/// channel bindings (null without a vehicle). Setup phase.
[[nodiscard]] std::unique_ptr<models::VehicleChannels> add_rig_channels(
    rt::ChannelTable& table, const std::optional<models::VehicleParams>& vehicle);

/// The bus specifications of the block at `prefix` ("can"), or errors. `table` holds the
/// rig's channels (add_rig_channels) and receives each bus's status channels, so that later
/// blocks (the shared-memory bus) resolve against them too; `period_s` is the rig's tick
/// (the cycles round to it).
[[nodiscard]] ConfigErrors check_can(const Can& can, rt::ChannelTable& table, double period_s,
                                     std::string_view prefix, const SourceMap& sources,
                                     std::vector<io::can::CanBusSpec>& buses);

}  // namespace hil::config
