#include "rt_core/lock_step_clock.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace hil::rt {
namespace {

/// A loop of `total` ticks on the clock, on a thread of its own.
struct Loop {
  LockStepClock& clock;
  std::int64_t total;
  std::atomic<std::int64_t> ran{0};
  std::thread thread{[this] {
    for (std::int64_t k = 0; k < total; ++k) {
      clock.sleep_until(kSecond + k * 250'000);
      ran.store(k + 1);
    }
  }};
};

void wait_until_waiting(const LockStepClock& c) {
  while (!c.waiting()) std::this_thread::yield();
}

TEST(LockStepClock, RunsExactlyTheTicksItIsSteppedAndWaitsThere) {
  LockStepClock clock(/*paused=*/true);
  Loop loop{.clock = clock, .total = 100'000};
  wait_until_waiting(clock);
  EXPECT_EQ(loop.ran.load(), 0);
  std::int64_t expected = 0;
  for (const std::int64_t n : {1, 7, 40, 3, 1000}) {
    const std::int64_t target = clock.step(n);
    expected += n;
    EXPECT_EQ(target, expected);
    while (!(clock.waiting() && clock.ticks_through() == target)) std::this_thread::yield();
    EXPECT_EQ(loop.ran.load(), target);
  }
  clock.resume();  // to the end
  loop.thread.join();
  EXPECT_EQ(loop.ran.load(), 100'000);
  EXPECT_FALSE(clock.paused());
}

TEST(LockStepClock, TimeIsTheWorkNotTheWait) {
  LockStepClock clock(true);
  Loop loop{.clock = clock, .total = 2};
  wait_until_waiting(clock);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // waiting: not late
  (void)clock.step(2);
  loop.thread.join();
  EXPECT_LT(clock.now() - (kSecond + 250'000), 20'000'000) << "the 50 ms wait counted as work";
}

}  // namespace
}  // namespace hil::rt
