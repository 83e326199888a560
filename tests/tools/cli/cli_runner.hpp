#pragma once
// Runs the hilsim binary as a user would and captures what it prints, for CLI tests.

#include <string>

#include "tests/support/run_command.hpp"

namespace hil::tools::testing {

using io::testing::CommandResult;

/// `hilsim ARGS` through the shell (ARGS are shell words: quote as needed); stdout and
/// stderr interleaved in the result.
inline CommandResult run_hilsim(const std::string& args) {
  return io::testing::run_command(std::string(HILSIM_BINARY) + " " + args);
}

}  // namespace hil::tools::testing
