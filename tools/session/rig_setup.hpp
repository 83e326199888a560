#pragma once
// A rig made ready to run, shared by `hilsim run` and `hilsim timing --rig`: the rig file and
// its overlays loaded, the scenario (--scenario, else the rig's default_scenario) applied,
// the runtime built (channels, vehicle, CAN buses) and its tasks in their slots of the tick, with
// the built-in virtual ECU when asked for and possible. Setup phase only.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/scenario/scenario_settings.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/rig.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/session/scenario_run.hpp"

namespace hil::session {

struct RigSelection {
  std::string rig = "ravon";           ///< name or path (config/rig_locator.hpp)
  std::vector<std::string> overlays;   ///< applied on the rig file, in order
  std::string scenario;                ///< name or path; "" = the rig's default; "none"
  std::optional<std::string> can_uri;  ///< a real ECU on this transport
  std::string ecu = "virtual";         ///< "virtual" (in process) or "none"
};

struct RigSetup {
  std::string rig;  ///< the short name
  std::filesystem::path rig_file;
  config::RigSettings settings;  ///< the scenario's rig block applied
  std::optional<std::filesystem::path> scenario_file;
  std::optional<config::ScenarioSettings> scenario;
  std::string ecu;  ///< "virtual (in process)", the --can URI, or "none"
  std::unique_ptr<runtime::Rig> runtime;
  std::unique_ptr<session::ScenarioRun> scenario_run;  ///< when there is a scenario
  std::unique_ptr<runtime::FaultEngine> faults;        ///< the rig's and scenario's faults
  runtime::TickPlan plan;  ///< the tick: the rig's and the scenario's tasks in their slots
};

/// nullptr after printing every configuration error (FILE:LINE:COLUMN: field: problem) to
/// stderr. Throws std::runtime_error for a rig or scenario that cannot be found or a runtime
/// that cannot be built (a transport that does not open).
[[nodiscard]] std::unique_ptr<RigSetup> set_up_rig(const RigSelection& selection);

/// The faults of a run: the rig's, then the scenario's.
[[nodiscard]] std::vector<config::FaultSettings> run_faults(
    const config::RigSettings& rig, const std::optional<config::ScenarioSettings>& scenario);
/// The seed of a run's random processes (vehicle.seed, 1 without a vehicle).
[[nodiscard]] std::uint64_t run_seed(const config::RigSettings& rig) noexcept;
/// What the faults of a run of `rig` act on.
[[nodiscard]] runtime::FaultTargets fault_targets(runtime::Rig& rig);

}  // namespace hil::session
