#pragma once
// `hilsim sweep plan|run|submit|collect`. See tools/sweep/ and docs/sweeps.md.

#include <CLI/CLI.hpp>

namespace hil::cli {

void add_sweep_command(CLI::App& app);

}  // namespace hil::cli
