#pragma once
// What a bus does with each message of its DBC (docs/can.md "Rest-bus simulation"): sent (a
// `tx` block, or a node hilsim simulates), received (an `rx` block, or a message of the device
// under test, checked), or left alone — with the send plan from the DBC's attributes and the
// E2E protection from the rig's `e2e` blocks or the DBC's E2E_* attributes. Setup phase.

#include <vector>

#include "io/can/mapping/can_bus_spec.hpp"

namespace hil::io::can {

/// Resolves `spec`'s node lists and E2E settings into its rx and tx lists (appending an entry
/// per simulated or checked message after the rig's own blocks), gives every sent message its
/// SendPlan, fills spec.plan with one line per message decided on ("ABS_WheelSpeeds 0x120 from
/// ABS: sent, cyclic 10 ms; E2E P01 data id 0x123 (both) (vehicle.dbc)") and sets
/// spec.planned. Does nothing when spec.planned is set. Unknown node or message names, send
/// types and E2E settings that cannot work become problems ("simulate_nodes[1]",
/// "e2e[0].message", "dbc", …).
void plan_bus(CanBusSpec& spec, std::vector<MappingProblem>& problems);

}  // namespace hil::io::can
