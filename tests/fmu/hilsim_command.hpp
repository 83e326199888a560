#pragma once
// The FMU tests' use of the hilsim binary (HILSIM_BINARY) and of the files it writes.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_command.hpp"

namespace hil::fmu_testing {

/// `hilsim ARGS`, its status and output.
inline io::testing::CommandResult hilsim(const std::string& args) {
  return io::testing::run_command(std::string(HILSIM_BINARY) + " " + args);
}

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace hil::fmu_testing
