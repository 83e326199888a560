#pragma once
// The console of a run RunBuilder builds (docs/console.md): what the run shows on it and what
// it lets an operator do — commands, UDS requests, driving, stepping a paused run. Setup
// phase; the feed's callbacks run on the console thread (io/console/console_feed.hpp).

#include "io/console/console_feed.hpp"
#include "tools/session/run.hpp"

namespace hil::session {

/// Everything `run` has (its rig, scenario, recording, judge, faults, commands, driver and,
/// paused, its lock-step gate), for the console to show. `run` outlives the console.
[[nodiscard]] io::console::ConsoleFeed console_feed_of(Run& run);

}  // namespace hil::session
