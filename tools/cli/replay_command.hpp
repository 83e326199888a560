#pragma once
// `hilsim replay`. See replay_session.hpp.

#include <CLI/CLI.hpp>

namespace hil::cli {

void add_replay_command(CLI::App& app);

}  // namespace hil::cli
