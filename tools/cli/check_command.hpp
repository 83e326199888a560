#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim check FILE [--overlay FILE]...`: validates a rig config without running it; prints
/// every error as file:line:column (exit 1) or a summary of the effective settings (exit 0).
void add_check_command(CLI::App& app);

}  // namespace hil::cli
