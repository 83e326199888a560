#pragma once
// `hilsim fmu simulate` of an FMU run by model exchange (io/fmu/fmu_me.hpp): hilsim's solver
// (--solver euler|rk4, default RK4) at a fixed step — --step, else the output interval —
// state events located by bisection within the step to 1e-12 s, time events and clock ticks
// hit exactly (they split the step). Rows as a co-simulation FMU's (fmu_run_parts.hpp): at
// every output point, at an input event, and at the end (the stop time, or the time the FMU
// asked to terminate). Setup (allocates, throws FmuError). Thread-safety: functions of their
// arguments.

#include <string_view>

#include "io/fmu/fmu.hpp"
#include "io/fmu/fmu_me.hpp"
#include "tools/session/fmu/fmu_simulate.hpp"

namespace hil::session {

/// The model-exchange loop of simulate_fmu (`fmu` has model_exchange()).
[[nodiscard]] FmuSimulation simulate_model_exchange(io::fmu::Fmu& fmu,
                                                    const FmuSimulateSpec& options);

/// "euler" / "rk4" → the solver; anything else throws FmuError listing both.
[[nodiscard]] io::fmu::MeSolver parse_solver(std::string_view name);

}  // namespace hil::session
