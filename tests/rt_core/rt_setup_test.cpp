#include "rt_core/rt_setup.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include "rt_core/rt_thread.hpp"

namespace hil::rt {
namespace {

bool any_warning_contains(const RtStatus& s, std::string_view text) {
  for (const std::string& w : s.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(RtSetup, ANonRtKernelIsReportedAsNotRealTimeWithTheFix) {
  RtStatus status;
  RtProcessGuard guard({.lock_memory = false, .hold_dma_latency = false}, status);
  if (kernel_is_preempt_rt()) GTEST_SKIP() << "this machine runs a PREEMPT_RT kernel";

  EXPECT_FALSE(status.realtime());
  EXPECT_TRUE(any_warning_contains(status, "kernel is not PREEMPT_RT"));
  EXPECT_TRUE(any_warning_contains(status, "linux-image-rt"));
  EXPECT_NE(status.summary().find("not real-time"), std::string::npos);
}

TEST(RtSetup, ThreadRunsWithTheRequestedPolicyOrSaysWhichPrivilegeIsMissing) {
  RtStatus status;
  int policy = -1;
  sched_param param{};
  {
    RtThread thread({.priority = 20}, status,
                    [&] { pthread_getschedparam(pthread_self(), &policy, &param); });
  }
  if (status.fifo_scheduling) {
    EXPECT_EQ(policy, SCHED_FIFO);
    EXPECT_EQ(param.sched_priority, 20);
  } else {
    EXPECT_EQ(policy, SCHED_OTHER);
    EXPECT_TRUE(any_warning_contains(status, "CAP_SYS_NICE"));
    EXPECT_TRUE(any_warning_contains(status, "LimitRTPRIO"));
  }
}

TEST(RtSetup, PriorityZeroMeansANormalThreadAndNotRealTime) {
  RtStatus status;
  {
    RtThread thread({.priority = 0}, status, [] {});
  }
  EXPECT_FALSE(status.fifo_scheduling);
  EXPECT_FALSE(status.realtime());
  EXPECT_NE(status.summary().find("no SCHED_FIFO"), std::string::npos);
}

TEST(RtSetup, PinningToACpuThatDoesNotExistWarnsWithTheCpusThereAre) {
  RtStatus status;
  int cpu_seen = -1;
  {
    RtThread thread({.priority = 0, .cpu = 4000}, status, [&] { cpu_seen = sched_getcpu(); });
  }
  EXPECT_FALSE(status.cpu_pinned);
  EXPECT_TRUE(any_warning_contains(status, "cannot pin the RT thread to CPU 4000"));
  EXPECT_GE(cpu_seen, 0);  // it still ran
}

TEST(RtSetup, PinningToCpuZeroRunsThereWhenAllowed) {
  RtStatus status;
  int cpu_seen = -1;
  {
    RtThread thread({.priority = 0, .cpu = 0}, status, [&] { cpu_seen = sched_getcpu(); });
  }
  ASSERT_TRUE(status.cpu_pinned) << status.warnings.front();
  EXPECT_EQ(cpu_seen, 0);
}

}  // namespace
}  // namespace hil::rt
