#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim tire-curve`: prints the steady-state VTI force curves of one tire as CSV.
void add_tire_curve_command(CLI::App& app);

}  // namespace hil::cli
