#pragma once
// `hilsim replay` (issue 6). See replay_session.hpp.

#include <CLI/CLI.hpp>

namespace hil::cli {

void add_replay_command(CLI::App& app);

}  // namespace hil::cli
