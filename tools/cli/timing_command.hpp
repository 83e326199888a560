#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim timing`: runs the executive with a synthetic workload and reports its timing.
void add_timing_command(CLI::App& app);

}  // namespace hil::cli
