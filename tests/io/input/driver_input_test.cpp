// The driver's controls into channel writes (io/input/driver_input.hpp): nothing written in
// AUTO; taking the wheel writes the mode and the controls; a held axis keeps ramping at its
// rate limit from pump to pump; changes below the epsilon wait, the target is always reached;
// at most one write per channel every 19 ms; giving the wheel back releases every channel it
// forced, the mode last; a page's gamepad that goes quiet rests; the keyboard's toggle; axes
// on one channel add up within its range; a refused write is tried again.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "io/input/driver_channels.hpp"
#include "io/input/driver_input.hpp"

namespace hil::io::input {
namespace {

struct Call {
  std::string channel;
  std::optional<double> value;  // none: a release
};

/// The sink: every call recorded; refuses while `full`.
struct Recorder {
  std::vector<Call> calls;
  bool full = false;
  DriverInput::Sink sink() {
    return [this](const std::string& c, std::optional<double> v) {
      if (full) return false;
      calls.push_back({c, v});
      return true;
    };
  }
  [[nodiscard]] std::vector<Call> take() { return std::exchange(calls, {}); }
};

DriverSpec gamepad_spec() {
  DriverSpec s;
  s.axes.push_back({.device = Device::gamepad,
                    .index = 0,
                    .channel = "driver.steer",
                    .channel_min = -1.0,
                    .channel_max = 1.0,
                    .shape = {.invert = true, .rate_limit = 2.0}});
  s.axes.push_back({.device = Device::gamepad,
                    .index = 7,
                    .analog_button = true,
                    .channel = "driver.throttle",
                    .channel_min = 0.0,
                    .channel_max = 1.0,
                    .shape = {.raw_min = 0.0, .raw_max = 1.0, .pedal = true}});
  s.axes.push_back({.device = Device::keyboard,
                    .positive_keys = {"ArrowLeft"},
                    .negative_keys = {"ArrowRight"},
                    .channel = "driver.steer",
                    .channel_min = -1.0,
                    .channel_max = 1.0});
  s.buttons.push_back(
      {.device = Device::gamepad, .index = 0, .channel = "driver.mode", .value = 1});
  s.buttons.push_back(
      {.device = Device::gamepad, .index = 1, .channel = "driver.mode", .value = 0});
  s.buttons.push_back({.device = Device::keyboard,
                       .key = "KeyH",
                       .channel = "driver.mode",
                       .value = 1,
                       .toggle = true});
  return s;
}

std::vector<double> buttons(std::size_t pressed = 99, double trigger = 0.0) {
  std::vector<double> b(16, 0.0);
  if (pressed < b.size()) b[pressed] = 1.0;
  b[7] = trigger;
  return b;
}

double value_of(const DriverStatus& s, const std::string& channel) {
  for (const auto& [c, v] : s.values) {
    if (c == channel) return v;
  }
  return -99.0;
}

TEST(DriverInput, AutoWritesNothingWhateverTheSticksDo) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.gamepad(std::vector{-1.0}, buttons(99, 1.0), 0.0);
  for (int k = 0; k < 10; ++k) in.pump(0.02 * k, r.sink());
  EXPECT_TRUE(r.calls.empty());
  EXPECT_FALSE(in.status().human);
}

TEST(DriverInput, TakingTheWheelWritesTheModeThenTheControlsAndAHeldStickRamps) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.gamepad(std::vector{-1.0}, buttons(0, 0.5), 0.0);  // A pressed, stick full left, half throttle
  in.pump(0.0, r.sink());
  std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 3U);
  EXPECT_EQ(c[0].channel, "driver.mode");
  EXPECT_EQ(c[0].value, 1.0);
  EXPECT_EQ(c[1].channel, "driver.steer");
  EXPECT_EQ(c[1].value, 0.0);  // the rate limit starts from the rest
  EXPECT_EQ(c[2].channel, "driver.throttle");
  EXPECT_EQ(c[2].value, 0.5);  // no limit: at once
  // held: 2 full deflections per second, so 0.04 per 20 ms pump, until it reaches 1 (left is +)
  double last = 0.0;
  int pumps = 0;
  for (; last < 1.0 && pumps < 100; ++pumps) {
    in.pump(0.02 * (pumps + 1), r.sink());
    for (const Call& x : r.take()) {
      ASSERT_EQ(x.channel, "driver.steer");
      EXPECT_NEAR(*x.value - last, 0.04, 1e-9);
      last = *x.value;
    }
  }
  EXPECT_EQ(last, 1.0);
  EXPECT_EQ(pumps, 25);  // 0.5 s at 2/s
  in.pump(1.0, r.sink());
  EXPECT_TRUE(r.take().empty());  // nothing changes: nothing written
}

TEST(DriverInput, SmallChangesWaitAndAtMostFiftyWritesPerSecondPerChannel) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.gamepad({}, buttons(0, 0.5), 0.0);
  in.pump(0.0, r.sink());
  (void)r.take();
  in.gamepad({}, buttons(99, 0.501), 0.01);  // 0.001 < epsilon (0.002 of full scale) …
  in.pump(0.02, r.sink());
  in.gamepad({}, buttons(99, 0.6), 0.03);  // … but a real move goes out
  in.pump(0.04, r.sink());
  std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 1U);
  EXPECT_EQ(c[0].value, 0.6);
  // pumped every 5 ms with a new value each time: one write per 19 ms at most
  int writes = 0;
  for (int k = 1; k <= 200; ++k) {
    in.gamepad({}, buttons(99, 0.1 + 0.004 * k), 0.04 + 0.005 * k);  // a new value each time
    in.pump(0.04 + 0.005 * k, r.sink());
    writes += static_cast<int>(r.take().size());
  }
  EXPECT_LE(writes, 53);  // 1 s of pumps
  EXPECT_GE(writes, 45);
}

TEST(DriverInput, TheRestAndFullScaleAreWrittenExactlyEvenBelowTheEpsilon) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.gamepad({}, buttons(0, 0.0015), 0.0);
  in.pump(0.0, r.sink());
  EXPECT_EQ(r.take().back().value, 0.0015);
  in.gamepad({}, buttons(99, 0.0), 0.1);  // let go: 0, though only 0.0015 away
  in.pump(0.1, r.sink());
  std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 1U);
  EXPECT_EQ(c[0].value, 0.0);
  in.gamepad({}, buttons(99, 0.999), 0.2);
  in.pump(0.2, r.sink());
  in.gamepad({}, buttons(99, 1.0), 0.3);  // floored: 1, though only 0.001 away
  in.pump(0.3, r.sink());
  c = r.take();
  ASSERT_EQ(c.size(), 2U);
  EXPECT_EQ(c[1].value, 1.0);
}

TEST(DriverInput, GivingTheWheelBackReleasesEverythingItForcedTheModeLast) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.gamepad(std::vector{0.5}, buttons(0, 0.3), 0.0);
  for (int k = 0; k < 25; ++k) in.pump(0.02 * k, r.sink());
  (void)r.take();
  in.gamepad(std::vector{0.5}, buttons(1, 0.3), 0.5);  // B
  in.pump(0.52, r.sink());
  const std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 3U);
  for (const Call& x : c) EXPECT_FALSE(x.value.has_value()) << x.channel;
  EXPECT_EQ(c.back().channel, "driver.mode");
  EXPECT_TRUE(in.status().values.empty());
  in.pump(0.6, r.sink());
  EXPECT_TRUE(r.take().empty());  // nothing left forced
  // taken again: the stick ramps from the rest again (its rate limiter was reset)
  in.gamepad(std::vector{-1.0}, buttons(0, 0.0), 0.7);
  in.pump(0.7, r.sink());
  const std::vector<Call> again = r.take();
  ASSERT_GE(again.size(), 2U);
  EXPECT_EQ(again[1].channel, "driver.steer");
  EXPECT_NEAR(*again[1].value, 0.2, 1e-9);  // from 0 at 2/s over the 0.1 s since the last pump
}

TEST(DriverInput, AReleaseTheSinkRefusesIsTriedAgain) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.set_human(true);
  in.pump(0.0, r.sink());
  (void)r.take();
  in.set_human(false);
  r.full = true;
  in.pump(0.02, r.sink());
  EXPECT_EQ(in.counters().refused, 1U);
  r.full = false;
  in.pump(0.04, r.sink());
  const std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 3U);
  EXPECT_EQ(c.back().channel, "driver.mode");
  EXPECT_FALSE(c.back().value.has_value());
}

TEST(DriverInput, AQuietGamepadRestsAfterASecond) {
  DriverInput in(gamepad_spec());
  Recorder r;
  in.gamepad({}, buttons(0, 1.0), 0.0);
  in.pump(0.0, r.sink());
  EXPECT_EQ(r.take().back().value, 1.0);  // full throttle
  in.pump(0.9, r.sink());
  EXPECT_TRUE(r.take().empty());
  in.pump(1.1, r.sink());  // the page went away (a closed tab, a lost lock)
  const std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 1U);
  EXPECT_EQ(c[0].channel, "driver.throttle");
  EXPECT_EQ(c[0].value, 0.0);
  EXPECT_TRUE(in.status().human);  // the wheel is still taken: the vehicle slows down
}

TEST(DriverInput, OneKeyTakesAndGivesBackAndTheKeyboardSteersWithTheStick) {
  DriverInput in(gamepad_spec());
  Recorder r;
  const std::vector<std::string> h{"KeyH"};
  const std::vector<std::string> left{"ArrowLeft"};
  const std::vector<std::string> none;
  in.keyboard(h, 0.0);
  in.keyboard(none, 0.01);
  EXPECT_TRUE(in.status().human);
  in.keyboard(left, 0.02);
  in.gamepad(std::vector{-1.0}, buttons(), 0.02);  // the stick left too: 2 clamped to 1
  for (int k = 0; k < 50; ++k) in.pump(0.02 * k, r.sink());
  EXPECT_EQ(value_of(in.status(), "driver.steer"), 1.0);
  in.keyboard(h, 1.0);  // H again: back to AUTO
  EXPECT_FALSE(in.status().human);
  EXPECT_EQ(in.counters().presses, 2U);
}

TEST(DriverInput, ButtonsOtherThanTheModeActOnlyWhileHuman) {
  DriverSpec s;
  s.buttons.push_back(
      {.device = Device::gamepad, .index = 0, .channel = "driver.mode", .value = 1});
  s.buttons.push_back({.device = Device::gamepad,
                       .index = 3,
                       .channel = "vehicle.brake.park",
                       .value = 1,
                       .toggle = true});
  DriverInput in(s);
  Recorder r;
  in.gamepad({}, buttons(3), 0.0);  // Y in AUTO: nothing
  in.pump(0.0, r.sink());
  EXPECT_TRUE(r.take().empty());
  in.gamepad({}, buttons(0), 0.1);
  in.gamepad({}, buttons(3), 0.2);
  in.pump(0.2, r.sink());
  std::vector<Call> c = r.take();
  ASSERT_EQ(c.size(), 2U);
  EXPECT_EQ(c[1].channel, "vehicle.brake.park");
  EXPECT_EQ(c[1].value, 1.0);
  in.gamepad({}, buttons(), 0.3);
  in.gamepad({}, buttons(3), 0.4);  // toggled off
  in.pump(0.4, r.sink());
  c = r.take();
  ASSERT_EQ(c.size(), 1U);
  EXPECT_EQ(c[0].value, 0.0);
}

TEST(DriverInput, EvdevRangesFromTheDeviceWinAndAGoneDeviceRests) {
  DriverSpec s;
  s.axes.push_back({.device = Device::evdev,
                    .index = 2,
                    .channel = "driver.throttle",
                    .channel_min = 0.0,
                    .channel_max = 1.0,
                    .shape = {.raw_min = 0.0, .raw_max = 255.0, .pedal = true, .invert = true}});
  DriverInput in(s);
  Recorder r;
  in.set_human(true);
  in.evdev_range(2, 0.0, 1023.0);  // the device says 10 bits
  in.evdev_axis(2, 511.5, 0.0);
  in.pump(0.0, r.sink());
  EXPECT_EQ(r.take().back().value, 0.5);
  in.evdev_gone();
  in.pump(0.1, r.sink());
  EXPECT_EQ(r.take().back().value, 0.0);
  EXPECT_TRUE(in.uses(Device::evdev));
  EXPECT_FALSE(in.uses(Device::gamepad));
  EXPECT_EQ(std::string(kThrottleChannel), "driver.throttle");
}

}  // namespace
}  // namespace hil::io::input
