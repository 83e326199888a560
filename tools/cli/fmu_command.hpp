#pragma once
// `hilsim fmu info|simulate`. See io/fmu/fmu.hpp and tools/session/fmu/fmu_simulate.hpp.

#include <CLI/CLI.hpp>

namespace hil::cli {

void add_fmu_command(CLI::App& app);

}  // namespace hil::cli
