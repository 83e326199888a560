#pragma once
// The tests' name for rt::VirtualClock: time moves only when told, so the executive runs
// exact overrun scenarios in no wall time.

#include "rt_core/clock.hpp"

namespace hil::rt::testing {

using SimulatedClock = VirtualClock;

}  // namespace hil::rt::testing
