#pragma once
// CLI11 validators shared by the subcommands.

#include <CLI/CLI.hpp>

#include "io/console/console_spec.hpp"
#include "rt_core/time.hpp"
#include "tools/session/loop/speed.hpp"

namespace hil::cli {

/// Accepts durations such as 250us, 1.5ms, 10s between `min` and `max`.
[[nodiscard]] CLI::Validator duration_in(rt::Nanoseconds min, rt::Nanoseconds max);

/// Parses an option value already checked by duration_in().
[[nodiscard]] rt::Nanoseconds duration_value(const std::string& text);

/// --speed: adds the option to `cmd`, parsed into `speed` (session::Speed::parse).
CLI::Option* add_speed_option(CLI::App& cmd, session::Speed& speed, const std::string& help);

/// --console off|PORT|ADDR:PORT: adds the option to `cmd`, parsed into `console`.
CLI::Option* add_console_option(CLI::App& cmd, io::console::ConsoleSpec& console);

}  // namespace hil::cli
