#pragma once
// The channels a rig has once built (`hilsim check --print`): what a CAN mapping, an overlay
// or a scenario event may name. Setup only.

#include <vector>

#include "config/rig/loader.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::session {

/// Builds `rig` as a run would, its CAN buses on in-process transports (nothing is opened, the
/// shared-memory bus is not created), and returns its channel table's channels in order.
/// Throws std::runtime_error as runtime::Rig does.
[[nodiscard]] std::vector<rt::ChannelSpec> rig_channels(const config::RigSpec& rig);

}  // namespace hil::session
