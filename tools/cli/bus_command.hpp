#pragma once
// `hilsim bus`: the shared-memory bus of a running rig from the shell. See
// tools/session/bus/bus_tools.hpp.

#include <CLI/CLI.hpp>

namespace hil::cli {

void add_bus_command(CLI::App& app);

}  // namespace hil::cli
