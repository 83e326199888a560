// The replay's deviation bookkeeping (tools/session/replay/replay_compare.hpp): each channel's
// largest deviation relative to its largest recorded value, NaNs, --ignore, --tolerance.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tools/session/replay/replay_compare.hpp"

namespace hil::session {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(DeviationTracker, TheLargestDeviationRelativeToTheChannelsLargestValue) {
  DeviationTracker t;
  ASSERT_EQ(t.add_column("a"), 0U);
  ASSERT_EQ(t.add_column("b"), 1U);
  t.add(0, 1, 10.0, 10.0);
  t.add(0, 2, -20.0, -20.0 + 1e-12);  // the largest |value| is 20
  t.add(0, 3, 5.0, 5.0 + 4e-12);      // the largest deviation, later
  t.add(1, 1, 1.0, 1.0);              // identical: not listed
  const std::vector<ChannelDeviation> d = t.result({});
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].channel, "a");
  EXPECT_EQ(d[0].tick, 3);
  EXPECT_DOUBLE_EQ(d[0].magnitude, 20.0);
  EXPECT_NEAR(d[0].largest, 4e-12, 1e-15);
  EXPECT_NEAR(d[0].relative(), 2e-13, 1e-16);
}

TEST(DeviationTracker, NaNsAndChannelsRecordedAsZero) {
  DeviationTracker t;
  for (const char* c : {"nan_both", "nan_got", "zero"}) t.add_column(c);
  t.add(0, 1, kNaN, -kNaN);  // both NaN: different bits, no deviation
  t.add(1, 1, 1.0, kNaN);    // a number became NaN: infinitely far
  t.add(2, 1, 0.0, 1e-300);  // recorded as 0 throughout: any change is too much
  const std::vector<ChannelDeviation> d = t.result({});
  ASSERT_EQ(d.size(), 3U);
  EXPECT_EQ(d[0].relative(), kInf);
  EXPECT_EQ(d[1].relative(), kInf);
  EXPECT_EQ(d[2].channel, "nan_both");
  EXPECT_EQ(d[2].relative(), 0.0);
}

TEST(DeviationTracker, IgnoredChannelsComeLastAndAreNotJudged) {
  DeviationTracker t;
  t.add_column("vehicle.wheel.fl.slip");
  t.add_column("vehicle.body.yaw");
  t.add(0, 1, 1.0, -1.0);
  t.add(1, 1, 1.0, 1.0 + 1e-12);
  Comparison c{.values_differing = 2, .tolerance = 1e-9};
  c.deviations = t.result({"vehicle.wheel.*.slip*"});
  ASSERT_EQ(c.deviations.size(), 2U);
  EXPECT_EQ(c.deviations[0].channel, "vehicle.body.yaw");
  EXPECT_TRUE(c.deviations[1].ignored);
  EXPECT_TRUE(c.within_tolerance());
  c.deviations = t.result({});
  EXPECT_FALSE(c.within_tolerance());  // slip moved by 2 of its largest value 1
  c.tolerance.reset();
  c.deviations = t.result({"*"});
  EXPECT_FALSE(c.within_tolerance());  // no tolerance: bit for bit
}

TEST(Comparison, AFrameThatDiffersIsADivergenceWhateverTheTolerance) {
  Comparison c{.frames_differing = 1, .tolerance = 1.0};
  EXPECT_FALSE(c.within_tolerance());
}

}  // namespace
}  // namespace hil::session
