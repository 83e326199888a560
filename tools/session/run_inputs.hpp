#pragma once
// The sources a replay substitutes for a run's live inputs (recipe.hpp RecordedSources,
// ExternalLog), for RunBuilder: a recorded run's frames (can.log), bus snapshots (bus.log),
// FMU timing (fmu.log) and commands (commands.log) at the ticks it applied them; a log from
// elsewhere onto the rig's buses. Setup phase; one thread.

#include <cstddef>
#include <memory>
#include <string>

#include "io/can/transport/transport.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/session/recipe.hpp"
#include "tools/session/run.hpp"

namespace hil::session {

/// The recorded run's bus snapshots, FMU timing and commands, substituted for the live ones
/// (bus.log, fmu.log, commands.log: each optional); false after printing what is wrong with
/// them (malformed lines without --lenient, a command that does not apply to the rig).
[[nodiscard]] bool replay_recorded_inputs(Run& run, const RecordedSources& recorded,
                                          runtime::TickPlan& plan);

/// Bus `bus` (named `name`) of an external log's replay: the frames of the log's interface of
/// that name, and those of interfaces no bus is named after on the first.
[[nodiscard]] std::unique_ptr<io::can::Transport> external_transport(const CanRecording& log,
                                                                     const config::RigSpec& rig,
                                                                     std::size_t bus,
                                                                     const std::string& name);

/// The vehicle's arithmetic as its run had it (manifest "vehicle_math"): by pairs if the run
/// ran by pairs; where the run ran the four-lane build and this CPU cannot, says that the values
/// will differ in their last bits (docs/recording.md).
void follow_vehicle_math(runtime::Rig& rig, const std::string& recorded);

}  // namespace hil::session
