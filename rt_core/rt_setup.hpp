#pragma once
// Setup of a real-time process and thread (DESIGN.md §5). Every step that fails for lack of
// privilege degrades to a normal thread with one warning naming what is missing and how to
// grant it; RtStatus then says "not real-time". Nothing here runs in the cyclic phase.

#include <string>
#include <vector>

#include "rt_core/rt_spec.hpp"

namespace hil::rt {

struct RtStatus {
  bool preempt_rt_kernel = false;
  bool memory_locked = false;
  bool dma_latency_held = false;
  bool fifo_scheduling = false;
  bool cpu_pinned = false;
  std::vector<std::string> warnings;  ///< one per step that degraded

  /// True only when the kernel is PREEMPT_RT, the thread runs SCHED_FIFO with memory locked
  /// and every requested step succeeded.
  [[nodiscard]] bool realtime() const noexcept;
  /// "real-time" or "not real-time (…the failed steps…)".
  [[nodiscard]] std::string summary() const;
};

/// Process-wide settings, held while the object lives: kernel check, mlockall with malloc
/// kept from returning memory, /dev/cpu_dma_latency at 0. Setup phase; one per process.
class RtProcessGuard {
 public:
  RtProcessGuard(const RtSpec& options, RtStatus& status);
  ~RtProcessGuard();
  RtProcessGuard(const RtProcessGuard&) = delete;
  RtProcessGuard& operator=(const RtProcessGuard&) = delete;

 private:
  int dma_latency_fd_ = -1;
};

/// Settings of the calling thread: SCHED_FIFO priority, CPU affinity, stack prefault.
/// Call first thing on the RT thread.
void configure_current_thread(const RtSpec& options, RtStatus& status);

/// True when the running kernel is PREEMPT_RT (/sys/kernel/realtime or uname).
[[nodiscard]] bool kernel_is_preempt_rt();

}  // namespace hil::rt
