#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim play LOG --to URI [--map IFACE=URI]... [--loop N] [--speed F|max] [--ids FILTER]
/// [--lenient]`: sends a candump log or Vector ASC file onto CAN transports with its original
/// timing (absolute deadlines), then prints what was sent, skipped and how late.
void add_play_command(CLI::App& app);

}  // namespace hil::cli
