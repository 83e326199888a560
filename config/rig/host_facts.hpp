#pragma once
// Facts about the machine that some of a rig file's fields are checked against.

namespace hil::config {

struct Machine {
  int configured_cpus = 1;  ///< sysconf(_SC_NPROCESSORS_CONF): CPUs 0..n-1 may be named
};

/// The machine this process runs on. Thread-safe.
[[nodiscard]] Machine this_machine() noexcept;

}  // namespace hil::config
