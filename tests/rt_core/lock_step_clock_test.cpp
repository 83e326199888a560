#include "rt_core/lock_step_clock.hpp"

#include <gtest/gtest.h>

#include <cmath>
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

TEST(LockStepClock, AWatchStopsTheLoopAfterTheFirstTickItHoldsAt) {
  LockStepClock clock(true);
  double value = 0.0;  // the loop's channel: tick k leaves k·0.5 in it
  std::atomic<std::int64_t> ran{0};
  std::thread loop([&] {
    for (std::int64_t k = 0; k < 1000; ++k) {
      clock.sleep_until(kSecond + k * 250'000);
      value = static_cast<double>(k) * 0.5;
      ran.store(k + 1);
    }
  });
  wait_until_waiting(clock);
  (void)clock.step_until(500, &value, {.op = Compare::greater_equal, .threshold = 60.0});
  while (!(clock.waiting() && clock.limit() < 500)) std::this_thread::yield();
  EXPECT_TRUE(clock.stopped_by_watch());
  EXPECT_EQ(clock.ticks_through(), 121);  // tick 120 left 60: the loop waits before tick 121
  EXPECT_EQ(ran.load(), 121);
  // a plain step runs on, the watch is gone
  EXPECT_EQ(clock.step(10), 131);
  while (!(clock.waiting() && clock.ticks_through() == 131)) std::this_thread::yield();
  // a watch that never holds: the step's own end
  EXPECT_EQ(clock.step_until(5, &value, {.op = Compare::less, .threshold = 0.0}), 136);
  while (!(clock.waiting() && clock.ticks_through() == 136)) std::this_thread::yield();
  EXPECT_FALSE(clock.stopped_by_watch());
  clock.resume();
  loop.join();
  EXPECT_EQ(ran.load(), 1000);
}

TEST(ChannelCondition, ParsesWhatUsersWrite) {
  std::string error;
  const auto c = parse_condition("  vehicle.body.speed >= 0.9 ", error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(c->channel, "vehicle.body.speed");
  EXPECT_EQ(c->op, Compare::greater_equal);
  EXPECT_EQ(c->threshold, 0.9);
  EXPECT_EQ(parse_condition("a.b!=-1e-3", error)->op, Compare::not_equal);
  EXPECT_EQ(parse_condition("a.b < 2", error)->op, Compare::less);
  for (const char* bad : {"speed is high", "a.b > ", "a.b > x", "A.b > 1", "> 1", "a.b > 1e999"}) {
    error.clear();
    EXPECT_FALSE(parse_condition(bad, error)) << bad;
    EXPECT_NE(error.find("CHANNEL OP VALUE"), std::string::npos) << error;
  }
  EXPECT_FALSE(compare(std::nan(""), Compare::not_equal, 1.0)) << "NaN meets no condition";
  EXPECT_TRUE(compare(2.0, Compare::not_equal, 1.0));
}

}  // namespace
}  // namespace hil::rt
