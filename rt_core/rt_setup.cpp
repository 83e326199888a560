#include "rt_core/rt_setup.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <system_error>

namespace hil::rt {

namespace {

std::string errno_text(int err) { return std::error_code(err, std::system_category()).message(); }

}  // namespace

bool RtStatus::realtime() const noexcept {
  return preempt_rt_kernel && memory_locked && fifo_scheduling && warnings.empty();
}

std::string RtStatus::summary() const {
  if (realtime()) return "real-time";
  std::string missing;
  const auto add = [&missing](bool ok, const char* what) {
    if (ok) return;
    missing += missing.empty() ? "" : ", ";
    missing += what;
  };
  add(preempt_rt_kernel, "kernel not PREEMPT_RT");
  add(fifo_scheduling, "no SCHED_FIFO");
  add(memory_locked, "memory not locked");
  if (missing.empty()) missing = fmt::format("{} setup warning(s)", warnings.size());
  return "not real-time (" + missing + ")";
}

bool kernel_is_preempt_rt() {
  std::ifstream realtime("/sys/kernel/realtime");
  int flag = 0;
  if (realtime >> flag && flag == 1) return true;
  utsname u{};
  return uname(&u) == 0 && std::strstr(u.version, "PREEMPT_RT") != nullptr;
}

RtProcessGuard::RtProcessGuard(const RtSpec& options, RtStatus& status) {
  status.preempt_rt_kernel = kernel_is_preempt_rt();
  if (!status.preempt_rt_kernel) {
    utsname u{};
    uname(&u);
    status.warnings.push_back(fmt::format(
        "kernel is not PREEMPT_RT ({} {}): wake-up latency is not bounded; boot a PREEMPT_RT "
        "kernel (Debian: apt install linux-image-rt-amd64)",
        u.release, u.version));
  }

  if (options.lock_memory) {
    if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
      status.memory_locked = true;
      // Keep freed memory in the (locked) heap and never hand big blocks to fresh mmaps:
      // otherwise a later allocation could page-fault.
      mallopt(M_TRIM_THRESHOLD, -1);  // NOLINT(concurrency-mt-unsafe): setup, one thread
      mallopt(M_MMAP_MAX, 0);         // NOLINT(concurrency-mt-unsafe): setup, one thread
    } else {
      status.warnings.push_back(fmt::format(
          "mlockall failed ({}): memory may be paged out and page faults add latency; grant "
          "LimitMEMLOCK=infinity (systemd) or 'memlock unlimited' in "
          "/etc/security/limits.conf, or CAP_IPC_LOCK",
          errno_text(errno)));
    }
  }

  if (options.hold_dma_latency) {
    dma_latency_fd_ = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
    const std::int32_t zero = 0;
    if (dma_latency_fd_ >= 0 && write(dma_latency_fd_, &zero, sizeof zero) == sizeof zero) {
      status.dma_latency_held = true;
    } else {
      status.warnings.push_back(fmt::format(
          "cannot hold /dev/cpu_dma_latency at 0 ({}): deep CPU idle states may add wake-up "
          "latency; run as root or give the service write access to /dev/cpu_dma_latency "
          "(udev rule)",
          errno_text(errno)));
      if (dma_latency_fd_ >= 0) close(dma_latency_fd_);
      dma_latency_fd_ = -1;
    }
  }
}

RtProcessGuard::~RtProcessGuard() {
  if (dma_latency_fd_ >= 0) close(dma_latency_fd_);  // the kernel restores the default
}

void configure_current_thread(const RtSpec& options, RtStatus& status) {
  if (options.priority > 0) {
    sched_param param{};
    param.sched_priority = options.priority;
    const int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
    status.fifo_scheduling = err == 0;
    if (err != 0) {
      status.warnings.push_back(fmt::format(
          "SCHED_FIFO priority {} refused ({}): running as a normal thread; grant CAP_SYS_NICE "
          "or LimitRTPRIO=99 (systemd) or 'rtprio 99' in /etc/security/limits.conf",
          options.priority, errno_text(err)));
    }
  }

  if (options.cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    const int cpu = *options.cpu;
    int err = EINVAL;
    if (cpu >= 0 && cpu < CPU_SETSIZE) {
      CPU_SET(static_cast<std::size_t>(cpu), &set);
      err = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    status.cpu_pinned = err == 0;
    if (err != 0) {
      status.warnings.push_back(
          fmt::format("cannot pin the RT thread to CPU {} ({}): this machine has CPUs 0..{}", cpu,
                      errno_text(err), sysconf(_SC_NPROCESSORS_ONLN) - 1));
    }
  }

  // Touch the stack now so that the cyclic phase never faults it in.
  if (options.stack_prefault_bytes > 0) {
    auto* stack = static_cast<volatile unsigned char*>(alloca(options.stack_prefault_bytes));
    for (std::size_t i = 0; i < options.stack_prefault_bytes; i += 4096) stack[i] = 0;
  }
}

}  // namespace hil::rt
