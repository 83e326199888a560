// FreeRunningClock (`--speed max`): time jumps to each deadline instead of sleeping and moves
// with the work done, every nanosecond of it counted in some tick, with one read of the wall
// clock per tick (the end of the last tick's work is the next tick's start).

#include <gtest/gtest.h>

#include "rt_core/clock.hpp"

namespace hil::rt {
namespace {

constexpr Nanoseconds kWork = 200'000;  // spun on the real clock: at least this much passes

TEST(FreeRunningClock, JumpsToAFutureDeadlineAtOnce) {
  FreeRunningClock clock;
  const Nanoseconds start = clock.now();
  MonotonicClock wall;
  const Nanoseconds before = wall.now();
  EXPECT_EQ(clock.wake_at(start + 10 * kSecond), start + 10 * kSecond);
  EXPECT_LT(wall.now() - before, kSecond);  // did not sleep
}

TEST(FreeRunningClock, MovesWithTheWorkDone) {
  FreeRunningClock clock;
  const Nanoseconds woke = clock.wake_at(clock.now() + kSecond);
  spin_for(kWork);
  EXPECT_GE(clock.now() - woke, kWork);
}

TEST(FreeRunningClock, WorkBetweenATicksEndAndTheNextWakeIsTheNextTicks) {
  FreeRunningClock clock;
  const Nanoseconds woke = clock.wake_at(clock.now());
  const Nanoseconds end = clock.now();  // the tick's work ends: its last reading
  spin_for(kWork);                      // the executive's bookkeeping between ticks
  // A deadline already passed (an overrun): the next tick starts where the last one ended,
  // from that reading, and the bookkeeping is in the next tick's time, not lost
  const Nanoseconds next = clock.wake_at(woke);
  EXPECT_EQ(next, end);
  EXPECT_GE(clock.now() - next, kWork);
}

TEST(FreeRunningClock, AWakeWithoutAReadingBeforeItReadsTheWallClock) {
  FreeRunningClock clock;
  const Nanoseconds first = clock.wake_at(0);  // deadline long passed: now
  spin_for(kWork);
  EXPECT_GE(clock.wake_at(0) - first, kWork);  // no now() between: a fresh reading
}

}  // namespace
}  // namespace hil::rt
