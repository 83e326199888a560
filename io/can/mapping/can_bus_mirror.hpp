#pragma once
// The other end of a mapped bus: what the rig receives the ECU
// sends, and the other way round, with the same signals, counters and CRCs. The ECU's
// channels carry the rig's channel names: the ECU writes (as outputs) the values the rig
// receives and reads (as inputs) what the rig sends. Setup phase.

#include "io/can/mapping/can_bus_spec.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::can {

/// rx ↔ tx: every message the rig receives becomes one the ECU transmits (on its
/// GenMsgCycleTime, or `ecu_cycle_s` when the DBC has none) and every message the rig
/// transmits one the ECU receives (default timeout, no safe state).
[[nodiscard]] CanBusSpec mirror(const CanBusSpec& rig, double ecu_cycle_s = 0.02);

/// Adds to `table` each channel `ecu` (a mirrored spec) names that the table lacks:
/// received signals as inputs, transmitted ones as outputs.
void add_mirror_channels(const CanBusSpec& ecu, rt::ChannelTable& table);

}  // namespace hil::io::can
