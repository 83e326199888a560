// The rig file's `driver` block (config/driver.proto, config/driver_spec.cpp): every problem
// located at file:line:column with its field — ranges, what each device needs, channels that
// are not inputs of the rig (did you mean), an axis on driver.mode, a button's value outside its
// channel — and a valid block converted as the shaping expects it (each device's raw range, the
// channel's range); the shipped rigs map a gamepad, the keyboard and an evdev wheel.

#include <gtest/gtest.h>

#include "config/rig/loader.hpp"
#include "io/input/driver_channels.hpp"
#include "tests/config/loader_fixture.hpp"

namespace hil::config::testing {
namespace {

using io::input::Device;

class DriverConfigTest : public LoaderTest {};

TEST_F(DriverConfigTest, FieldErrorsNameTheFieldAndWhereItIsWritten) {
  // NOLINTBEGIN(bugprone-suspicious-missing-comma): each message is one literal split over lines
  EXPECT_EQ(load_errors(R"(driver {
  axes { device: GAMEPAD index: 0 channel: "driver.steer" }
  axes { device: GAMEPAD index: 1 channel: "driver.steer" dead_zone: 1.2 exponent: 9 }
  axes { device: EVDEV index: 2 channel: "driver.throttle" }
  axes { device: KEYBOARD channel: "driver.brake" pedal: true }
  axes { device: GAMEPAD index: 99 channel: "driver.brake" rate_limit: -1 }
  buttons { device: KEYBOARD key: "Arrow Up" channel: "driver.mode" }
  buttons { device: EVDEV channel: "driver.mode" }
  max_speed: 0
})"),
            (Errors{
                "base.pbtxt:3:70: driver.axes[1].dead_zone: 1.2 is out of range; expected 0..0.9 "
                "(of the travel about the rest)",
                "base.pbtxt:3:84: driver.axes[1].exponent: 9 is out of range; expected 0.2..5 (the "
                "curve |n|^exponent; 1 linear)",
                "base.pbtxt:4:3: driver.axes[2]: an EVDEV axis needs its raw range, used when the "
                "device does not report it (a FIFO); expected min: 0 max: 255",
                "base.pbtxt:5:3: driver.axes[3].positive_keys: a KEYBOARD axis needs its keys; "
                "expected positive_keys: \"ArrowUp\" (and negative_keys for a centred axis)",
                "base.pbtxt:6:33: driver.axes[4].index: 99 is out of range; expected 0..63 (the "
                "Gamepad API's axes[index])",
                "base.pbtxt:6:72: driver.axes[4].rate_limit: -1 is out of range; expected 0..1000 "
                "(full deflections per second; 0 none)",
                "base.pbtxt:7:35: driver.buttons[0].key: \"Arrow Up\": a KEYBOARD button needs its "
                "key's KeyboardEvent.code; expected e.g. key: \"KeyH\"",
                "base.pbtxt:8:3: driver.buttons[1]: an EVDEV button needs its EV_KEY code; "
                "expected index: 304",
                "base.pbtxt:9:14: driver.max_speed: 0 is out of range; expected 0.1..100 (m/s at "
                "full throttle)",
            }));
  // NOLINTEND(bugprone-suspicious-missing-comma)
}

TEST_F(DriverConfigTest, ChannelsMustBeInputsOfTheRig) {
  // NOLINTBEGIN(bugprone-suspicious-missing-comma): each message is one literal split over lines
  EXPECT_EQ(
      load_errors(R"(driver {
  axes { device: GAMEPAD index: 1 channel: "driver.stear" }
  axes { device: GAMEPAD index: 2 channel: "driver.mode" }
  buttons { device: GAMEPAD index: 3 channel: "driver.mode" value: 0.5 }
  buttons { device: GAMEPAD index: 4 channel: "driver.throttle" value: 3 }
  buttons { device: GAMEPAD index: 5 channel: "" }
})"),
      (Errors{
          "base.pbtxt:2:44: driver.axes[0].channel: \"driver.stear\" is not a channel of the rig "
          "(did you mean driver.steer?); expected an input channel (hilsim check --print)",
          "base.pbtxt:3:44: driver.axes[1].channel: driver.mode is set by buttons (value 1 takes "
          "the wheel, 0 gives it back), not by an axis",
          "base.pbtxt:4:68: driver.buttons[0].value: 0.5: driver.mode is 0 (AUTO: give the wheel "
          "back) or 1 (HUMAN: take it)",
          "base.pbtxt:5:72: driver.buttons[1].value: 3 is outside driver.throttle's range [0, 1]",
          "base.pbtxt:6:47: driver.buttons[2].channel: no channel; expected e.g. channel: "
          "\"driver.steer\"",
      }));
  // NOLINTEND(bugprone-suspicious-missing-comma)
}

TEST_F(DriverConfigTest, AValidBlockBecomesTheMappingWithEachDevicesRange) {
  const LoadResult r = load(R"(driver {
  max_speed: 2
  axes { device: GAMEPAD index: 0 channel: "driver.steer" invert: true dead_zone: 0.1
         exponent: 2 rate_limit: 3 }
  axes { device: GAMEPAD index: 7 analog_button: true channel: "driver.throttle" pedal: true }
  axes { device: KEYBOARD positive_keys: ["ArrowUp"] channel: "driver.throttle" pedal: true }
  axes { device: KEYBOARD positive_keys: ["ArrowLeft"] negative_keys: ["ArrowRight"]
         channel: "driver.steer" }
  axes { device: EVDEV index: 5 min: 0 max: 1023 channel: "driver.brake" pedal: true }
  buttons { device: KEYBOARD key: "KeyH" channel: "driver.mode" toggle: true }
  evdev_device: "/dev/input/event7"
})");
  ASSERT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].to_string());
  ASSERT_TRUE(r.settings->driver.has_value());
  const io::input::DriverSpec& d = *r.settings->driver;
  EXPECT_EQ(d.max_speed, 2.0);
  EXPECT_EQ(d.evdev_device, "/dev/input/event7");
  ASSERT_EQ(d.axes.size(), 5U);
  EXPECT_EQ(d.axes[0].shape.raw_min, -1.0);  // a gamepad axis
  EXPECT_TRUE(d.axes[0].shape.invert);
  EXPECT_EQ(d.axes[0].shape.dead_zone, 0.1);
  EXPECT_EQ(d.axes[0].shape.exponent, 2.0);
  EXPECT_EQ(d.axes[0].shape.rate_limit, 3.0);
  EXPECT_EQ(d.axes[0].channel_min, -1.0);   // driver.steer's range
  EXPECT_EQ(d.axes[1].shape.raw_min, 0.0);  // a trigger
  EXPECT_EQ(d.axes[2].device, Device::keyboard);
  EXPECT_EQ(d.axes[2].shape.raw_min, 0.0);   // a key: 0..1
  EXPECT_EQ(d.axes[3].shape.raw_min, -1.0);  // a pair of keys: −1..1
  EXPECT_EQ(d.axes[4].device, Device::evdev);
  EXPECT_EQ(d.axes[4].shape.raw_max, 1023.0);
  EXPECT_EQ(d.axes[4].channel_max, 1.0);
  ASSERT_EQ(d.buttons.size(), 1U);
  EXPECT_EQ(d.buttons[0].value, 1.0);
  EXPECT_TRUE(d.buttons[0].toggle);
}

TEST_F(DriverConfigTest, TheShippedRigsMapAGamepadTheKeyboardAndAnEvdevWheel) {
  for (const char* rig : {"ravon", "hmmwv", "bench"}) {
    const LoadResult r = load_rig_config(
        std::string(HIL_SOURCE_DIR "/hil_rigs/") + rig + "/rig.pbtxt", {}, kFourCpus);
    ASSERT_TRUE(r.ok()) << rig << ": " << (r.errors.empty() ? "" : r.errors[0].to_string());
    ASSERT_TRUE(r.settings->driver.has_value()) << rig;
    const io::input::DriverSpec& d = *r.settings->driver;
    for (const Device device : {Device::gamepad, Device::keyboard, Device::evdev}) {
      bool steers = false;
      bool takes = false;
      for (const auto& a : d.axes)
        steers = steers || (a.device == device && a.channel == "driver.steer");
      for (const auto& b : d.buttons) {
        takes = takes || (b.device == device && b.channel == "driver.mode" && b.value == 1.0);
      }
      EXPECT_TRUE(steers && takes) << rig << " " << io::input::to_string(device);
    }
  }
}

}  // namespace
}  // namespace hil::config::testing
