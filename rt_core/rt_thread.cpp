#include "rt_core/rt_thread.hpp"

#include <pthread.h>

#include <future>

namespace hil::rt {

RtThread::RtThread(const RtSpec& options, RtStatus& status, std::function<void()> body) {
  std::promise<RtStatus> configured;
  auto ready = configured.get_future();
  // The thread owns the promise, so set_value() never races with the promise's destruction.
  thread_ =
      std::thread([options, configured = std::move(configured), body = std::move(body)]() mutable {
        pthread_setname_np(pthread_self(), "hilsim-rt");  // in ps -L, top -H, perf
        RtStatus thread_status;
        configure_current_thread(options, thread_status);
        configured.set_value(std::move(thread_status));
        body();
      });
  RtStatus thread_status = ready.get();
  status.fifo_scheduling = thread_status.fifo_scheduling;
  status.cpu_pinned = thread_status.cpu_pinned;
  status.warnings.insert(status.warnings.end(), thread_status.warnings.begin(),
                         thread_status.warnings.end());
}

RtThread::~RtThread() { join(); }

void RtThread::join() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace hil::rt
