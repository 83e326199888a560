#include "config/rig/host_facts.hpp"

#include <unistd.h>

#include <algorithm>

namespace hil::config {

Machine this_machine() noexcept {
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);  // -1 if unknown: assume one CPU
  return Machine{static_cast<int>(std::clamp(cpus, 1L, 1L << 20))};
}

}  // namespace hil::config
