#pragma once
// A thread configured for real-time work (SCHED_FIFO, affinity, prefaulted stack) that runs
// one body, e.g. Executive::run.

#include <functional>
#include <thread>

#include "rt_core/rt_setup.hpp"

namespace hil::rt {

class RtThread {
 public:
  /// Starts the thread and returns once it has applied `options`; the thread's part of the
  /// setup (FIFO, affinity) is merged into `status`. Setup phase; may throw.
  RtThread(const RtSpec& options, RtStatus& status, std::function<void()> body);
  /// Joins.
  ~RtThread();
  RtThread(const RtThread&) = delete;
  RtThread& operator=(const RtThread&) = delete;

  /// Waits for the body to return. Owner thread only.
  void join();

 private:
  std::thread thread_;
};

}  // namespace hil::rt
