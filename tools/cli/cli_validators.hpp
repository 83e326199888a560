#pragma once
// CLI11 validators shared by the subcommands.

#include <CLI/CLI.hpp>

#include "rt_core/time.hpp"

namespace hil::cli {

/// Accepts durations such as 250us, 1.5ms, 10s between `min` and `max`.
[[nodiscard]] CLI::Validator duration_in(rt::Nanoseconds min, rt::Nanoseconds max);

/// Parses an option value already checked by duration_in().
[[nodiscard]] rt::Nanoseconds duration_value(const std::string& text);

}  // namespace hil::cli
