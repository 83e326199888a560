#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim dbc show|encode|decode`: a DBC file as text, signal values → frame, frame or
/// candump log → signal values.
void add_dbc_command(CLI::App& app);

}  // namespace hil::cli
