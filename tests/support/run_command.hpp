#pragma once
// Runs a shell command for a test and returns its exit status and its output (stdout, and
// stderr too unless told otherwise).

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace hil::io::testing {

struct CommandResult {
  int status = -1;
  std::string output;
};

inline CommandResult run_command(const std::string& command, bool with_stderr = true) {
  CommandResult run;
  FILE* pipe = popen((command + (with_stderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    run.output.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

/// True if `program` is found on PATH (or is an existing path).
inline bool have_program(const std::string& program) {
  return run_command("command -v " + program + " >/dev/null").status == 0;
}

}  // namespace hil::io::testing
