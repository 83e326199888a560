#pragma once
// When a fault is on (docs/faults.md "The schema": Start, Stop, Pulse): its start (at a time, on a
// condition, after another fault), its stop (duration, count, condition, or a command's clear) and
// its pulse, advanced tick by tick. Internal to tools/faults; RT: noexcept, no allocation.

#include <cstdint>

#include "rt_core/channel_table.hpp"
#include "runtime/faults/fault_state.hpp"

namespace hil::runtime::detail {

/// RT: advances `f` to `tick`: started, stopped, active, its onset, first and last tick on,
/// and (channel and bus faults) its count of ticks on. `after_stopped`: for a fault that
/// starts after another, whether that one has stopped. Conditions read `table`.
void advance_trigger(Fault& f, std::int64_t tick, const rt::ChannelTable& table,
                     bool after_stopped) noexcept;

}  // namespace hil::runtime::detail
