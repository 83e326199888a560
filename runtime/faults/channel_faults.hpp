#pragma once
// A channel fault on the tick (docs/faults.md "Channel faults"): the channel's value through
// the fault's operation, the truth kept in fault.<name>.original, given back when it stops.
// RT: noexcept, no allocation (the delay ring is sized at setup).

#include <cstdint>

#include "rt_core/channel_table.hpp"
#include "rt_core/time.hpp"
#include "runtime/faults/fault_state.hpp"

namespace hil::runtime::detail {

/// Applies channel fault `f` (on or off) to its channel in `table` at `tick`.
void apply_channel_fault(Fault& f, rt::ChannelTable& table, std::int64_t tick,
                         rt::Nanoseconds period) noexcept;

}  // namespace hil::runtime::detail
