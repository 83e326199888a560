#pragma once
// Process and thread settings that make the loop real-time (DESIGN.md §5).

#include <optional>

namespace hil::rt {

struct RtSpec {
  int priority = 80;             ///< SCHED_FIFO priority 1..99; 0 = keep SCHED_OTHER.
  std::optional<int> cpu;        ///< pin the RT thread to this CPU; nullopt = no pinning.
  bool lock_memory = true;       ///< mlockall(MCL_CURRENT | MCL_FUTURE).
  bool hold_dma_latency = true;  ///< write 0 to /dev/cpu_dma_latency while running.
  std::size_t stack_prefault_bytes = 512 * 1024;
};

}  // namespace hil::rt
