// The one shaping of a driver's axis (io/input/axis_shaping.hpp) against values worked by hand:
// the raw range, a pedal against a centred axis, invert, the dead zone (full travel still
// reaching 1), the curve, the scale, and the rate limit in time.

#include <gtest/gtest.h>

#include <cmath>

#include "io/input/axis_shaping.hpp"

namespace hil::io::input {
namespace {

TEST(AxisShaping, ACentredAxisReadsMinusOneToOneAboutItsMiddle) {
  const AxisShape wheel{.raw_min = 0.0, .raw_max = 65535.0};
  EXPECT_DOUBLE_EQ(shape_axis(wheel, 0.0), -1.0);
  EXPECT_DOUBLE_EQ(shape_axis(wheel, 65535.0), 1.0);
  EXPECT_NEAR(shape_axis(wheel, 65535.0 / 2.0), 0.0, 1e-12);
  EXPECT_NEAR(shape_axis(wheel, 0.75 * 65535.0), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(shape_axis(wheel, 1e9), 1.0);  // beyond the range: clamped
  EXPECT_DOUBLE_EQ(shape_axis(wheel, std::nan("")), 0.0);
}

TEST(AxisShaping, APedalReadsZeroToOneAndInvertsAboutItsEnds) {
  const AxisShape pedal{.raw_min = 0.0, .raw_max = 255.0, .pedal = true};
  EXPECT_DOUBLE_EQ(shape_axis(pedal, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(shape_axis(pedal, 255.0), 1.0);
  EXPECT_NEAR(shape_axis(pedal, 51.0), 0.2, 1e-12);
  AxisShape resting_at_max = pedal;  // a wheel's pedal: 255 released, 0 pressed
  resting_at_max.invert = true;
  EXPECT_DOUBLE_EQ(shape_axis(resting_at_max, 255.0), 0.0);
  EXPECT_DOUBLE_EQ(shape_axis(resting_at_max, 0.0), 1.0);
  EXPECT_NEAR(shape_axis(resting_at_max, 204.0), 0.2, 1e-12);
}

TEST(AxisShaping, InvertTurnsACentredAxisRound) {
  const AxisShape stick{.invert = true};  // Gamepad API: right is +1; driver.steer's left is +
  EXPECT_DOUBLE_EQ(shape_axis(stick, 1.0), -1.0);
  EXPECT_DOUBLE_EQ(shape_axis(stick, -0.4), 0.4);
}

TEST(AxisShaping, TheDeadZoneReadsZeroAndTheRestStretchesToFullScale) {
  const AxisShape stick{.dead_zone = 0.1};
  EXPECT_DOUBLE_EQ(shape_axis(stick, 0.05), 0.0);
  EXPECT_DOUBLE_EQ(shape_axis(stick, -0.1), 0.0);
  EXPECT_NEAR(shape_axis(stick, 0.55), 0.5, 1e-12);  // (0.55 − 0.1)/0.9
  EXPECT_NEAR(shape_axis(stick, -0.55), -0.5, 1e-12);
  EXPECT_DOUBLE_EQ(shape_axis(stick, 1.0), 1.0);  // full travel is still full scale
  const AxisShape pedal{.raw_min = 0.0, .raw_max = 1.0, .pedal = true, .dead_zone = 0.2};
  EXPECT_DOUBLE_EQ(shape_axis(pedal, 0.15), 0.0);
  EXPECT_NEAR(shape_axis(pedal, 0.6), 0.5, 1e-12);
}

TEST(AxisShaping, TheCurveKeepsTheSignAndTheEnds) {
  const AxisShape stick{.dead_zone = 0.1, .exponent = 2.0};
  EXPECT_NEAR(shape_axis(stick, 0.55), 0.25, 1e-12);  // 0.5²: finer about the rest
  EXPECT_NEAR(shape_axis(stick, -0.55), -0.25, 1e-12);
  EXPECT_DOUBLE_EQ(shape_axis(stick, 1.0), 1.0);
  const AxisShape soft{.exponent = 0.5};
  EXPECT_NEAR(shape_axis(soft, 0.25), 0.5, 1e-12);
}

TEST(AxisShaping, TheScaleIsTheValueAtFullDeflection) {
  const AxisShape wind{.raw_min = 0.0, .raw_max = 1.0, .pedal = true, .scale = 20.0};
  EXPECT_DOUBLE_EQ(shape_axis(wind, 0.5), 10.0);
}

TEST(RateLimiter, MovesAtMostTheRateTimesTheTime) {
  RateLimiter r;
  EXPECT_DOUBLE_EQ(r.step(1.0, 2.0, 0.1), 0.2);  // 2 per second for 0.1 s
  EXPECT_DOUBLE_EQ(r.step(1.0, 2.0, 0.1), 0.4);
  EXPECT_DOUBLE_EQ(r.step(1.0, 2.0, 1.0), 1.0);  // arrives, never overshoots
  EXPECT_DOUBLE_EQ(r.step(-1.0, 2.0, 0.25), 0.5);
  EXPECT_DOUBLE_EQ(r.step(0.0, 2.0, -1.0), 0.5);  // time never runs back
  EXPECT_DOUBLE_EQ(r.step(0.3, 0.0, 0.0), 0.3);   // no limit: at once
  r.reset();
  EXPECT_DOUBLE_EQ(r.value(), 0.0);
}

}  // namespace
}  // namespace hil::io::input
