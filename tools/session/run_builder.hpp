#pragma once
// The one place a run is assembled (docs/architecture.md "Recipes"): from a recipe
// (recipe.hpp) to a Run (run.hpp) — the rig and its scenario loaded, the rig built with its
// sources substituted (live transports, or a recording's), its stages in their slots of the
// tick (the rig's, the scenario's events and judge, the built-in ECU, faults, commands, the
// record stage), the sink opened, the console's feed and the loop made ready. Setup phase:
// allocates, opens files and sockets, prints what a user needs before the run (warnings,
// where the recording goes).

#include <memory>

#include "tools/session/recipe.hpp"
#include "tools/session/run.hpp"

namespace hil::session {

class RunBuilder {
 public:
  explicit RunBuilder(Recipe recipe) : recipe_(std::move(recipe)) {}

  /// The run, or nullptr after printing why not to stderr: every configuration error
  /// (FILE:LINE:COLUMN: field: problem), a recording that cannot be read, a choice that does
  /// not fit the rig (--can without a CAN bus, --speed max with a real transport). Throws
  /// std::runtime_error for what cannot be found or opened (a rig, a scenario, a transport, a
  /// run directory's manifest).
  [[nodiscard]] std::unique_ptr<Run> build();

 private:
  [[nodiscard]] bool load_files(Run& run) const;
  [[nodiscard]] bool load_recorded(Run& run) const;
  [[nodiscard]] bool load_external(Run& run) const;
  [[nodiscard]] bool choose_peer(Run& run) const;
  void build_rig(Run& run) const;
  void build_ecu_alone(Run& run) const;
  void add_scenario(Run& run, runtime::TickPlan& plan) const;
  [[nodiscard]] bool add_inputs(Run& run, runtime::TickPlan& plan) const;
  /// A live run of a rig with a driver block: its driver (run.driver); false after saying why
  /// not (--joystick without a driver block).
  [[nodiscard]] bool add_driver(Run& run) const;
  void add_sink(Run& run, runtime::TickPlan& plan) const;
  void add_loop(Run& run, runtime::TickPlan plan) const;

  Recipe recipe_;
};

}  // namespace hil::session
