#pragma once
// `hilsim run`: the main job. See run_session.hpp.

#include <CLI/CLI.hpp>

namespace hil::cli {

void add_run_command(CLI::App& app);

}  // namespace hil::cli
