#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim export`: a run's telemetry.mcap as CSV files, one per channel group.
void add_export_command(CLI::App& app);

}  // namespace hil::cli
