// --speed as typed, and the clock each speed runs on.

#include "tools/session/loop/speed.hpp"

#include <gtest/gtest.h>

namespace hil::session {
namespace {

TEST(Speed, ParsesWhatHelpPromisesAndRefusesTheRest) {
  EXPECT_TRUE(Speed::parse("realtime")->realtime());
  EXPECT_EQ(Speed::parse("max")->mode, Speed::Mode::max);
  EXPECT_EQ(Speed::parse("2")->factor, 2.0);
  EXPECT_EQ(Speed::parse("0.5x")->factor, 0.5);
  EXPECT_EQ(Speed::parse("2")->to_string(), "2x");
  for (const char* bad : {"", "0", "-1", "fast", "1e7", "nan", "2xx", "x"}) {
    EXPECT_FALSE(Speed::parse(bad).has_value()) << bad;
  }
}

TEST(Speed, MaxNeverSleepsAndAFactorPaces) {
  const auto max = Speed::parse("max")->make_clock();
  const rt::Nanoseconds t0 = max->now();
  max->sleep_until(t0 + 10 * rt::kSecond);  // returns at once, time jumps
  EXPECT_GE(max->now(), t0 + 10 * rt::kSecond);

  const auto fast = Speed::parse("100")->make_clock();
  rt::MonotonicClock wall;
  const rt::Nanoseconds w0 = wall.now();
  fast->sleep_until(fast->now() + 500 * rt::kMillisecond);  // 5 ms of wall time at 100x
  const rt::Nanoseconds slept = wall.now() - w0;
  EXPECT_GE(slept, 4 * rt::kMillisecond);
  EXPECT_LT(slept, 400 * rt::kMillisecond);  // not the simulated half second
}

}  // namespace
}  // namespace hil::session
