#pragma once
// A fault's settings resolved against its rig (docs/faults.md): its description, its seed, its
// times in ticks, its channels' ids, and what it acts on. Internal to runtime/faults; the setup
// phase or a command's preparation, not the RT thread: throws std::runtime_error or
// std::invalid_argument (a channel the table does not have: std::out_of_range) naming the fault.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "config/fault_spec.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/time.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/faults/fault_state.hpp"

namespace hil::runtime::detail {

/// What a fault's settings resolve against.
struct FaultWorld {
  const rt::ChannelTable& table;
  const FaultTargets& targets;
  rt::Nanoseconds period;
  std::uint64_t seed;  ///< the run's: each fault's generator is seeded from it and its name
};

/// The message a message fault acts on: its bus, its direction and its index in that bus's
/// list of messages in that direction.
struct MessageRef {
  std::size_t bus = 0;
  bool tx = false;
  std::size_t index = 0;
  std::int64_t cycle_ticks = 1;  ///< the message's cycle (DBC, or the rig's), at least 1
};

/// Fills the run-time form of `f` from f.settings (all but the hook of a message fault), and
/// returns a message fault's message. `faults`: every fault, for a start after another (by
/// name); empty where no fault starts after another (a command's).
std::optional<MessageRef> resolve_fault(Fault& f, const FaultWorld& world,
                                        std::span<const std::unique_ptr<Fault>> faults);

}  // namespace hil::runtime::detail
