#pragma once
// `hilsim fmu simulate`: an FMU run on its own in virtual time, as the reference FMU
// simulator (fmusim, modelica/Reference-FMUs) does, so the output lines up with reference
// results row by row: the experiment and output CSV of fmu_run_parts.hpp; parameters and
// inputs of any type set by name (--set NAME=VALUE) before initialisation ends (FMI 3
// structural parameters in configuration mode); inputs from a CSV with fmusim's semantics
// (fmu_input.hpp: continuous inputs linear, discrete ones as steps, a communication point at
// each input event); a row at every output interval from start to stop inclusive. The FMU may
// end the simulation (fmi2DoStep's fmi2Discard with fmi2Terminated, fmi3DoStep's
// terminateSimulation): the row at the time it stopped is the last, and that is no error; an
// FMI 3 early return makes a row where it returned.
// Thread-safety: a function of its arguments.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/fmu/fmu.hpp"
#include "io/fmu/fmu_me.hpp"

namespace hil::session {

struct FmuSimulateSpec {
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> step;             ///< communication step (default: the output interval)
  std::optional<double> output_interval;  ///< default: --step, else the default experiment's
  std::vector<std::pair<std::string, std::string>> set;  ///< NAME, VALUE
  std::optional<std::filesystem::path> input_csv;
  bool early_return_allowed = false;  ///< FMI 3 co-simulation
  /// Model exchange: the solver (fmu_simulate_me.hpp; default RK4).
  std::optional<io::fmu::MeSolver> solver;
};

struct FmuSimulation {
  std::string csv;
  std::size_t steps = 0;
  int worst_status = 0;  ///< of the FMU's calls: 0 OK, 1 warning
  /// The FMU ended the simulation at this time (before the stop time).
  std::optional<double> terminated_at;
};

/// Runs `fmu`. Throws io::fmu::FmuError: an unknown variable (with the closest name), a value
/// that is no value of its type, a bad input CSV (file:line), a step that fails (its time and
/// status).
[[nodiscard]] FmuSimulation simulate_fmu(io::fmu::Fmu& fmu, const FmuSimulateSpec& options);

/// The co-simulation loop of simulate_fmu.
[[nodiscard]] FmuSimulation simulate_co_simulation(io::fmu::Fmu& fmu,
                                                   const FmuSimulateSpec& options);

/// `hilsim fmu info`: the model description as text.
[[nodiscard]] std::string describe_fmu(const io::fmu::Fmu& fmu);

}  // namespace hil::session
