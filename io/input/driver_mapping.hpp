#pragma once
// The driver's controls as a rig maps them (the `driver` block, config/driver.proto;
// docs/console.md "Driving"): axes and buttons of an input device — the browser's gamepad (the
// Gamepad API's standard mapping), the page's keyboard, a Linux evdev joystick or wheel — each
// mapped to an input channel of the rig; an axis is shaped on the way (axis_shaping.hpp).
// Plain data: config/driver_spec.cpp checks and fills it, DriverInput (driver_input.hpp) uses it.
// Thread-safety: a value type.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace hil::io::input {

/// Where a control comes from.
enum class Device : std::uint8_t {
  gamepad,   ///< the console page: navigator.getGamepads(), polled per animation frame
  keyboard,  ///< the console page: keys held (KeyboardEvent.code: "ArrowLeft", "KeyW")
  evdev,     ///< a Linux input device (struct input_event: EV_ABS axes, EV_KEY buttons)
};

/// "gamepad", "keyboard", "evdev".
[[nodiscard]] std::string_view to_string(Device d) noexcept;

/// How an axis's raw value becomes a channel value (shape_axis, axis_shaping.hpp).
struct AxisShape {
  double raw_min = -1.0;  ///< the raw value at one end of the axis's travel
  double raw_max = 1.0;   ///< … at the other end (> raw_min)
  /// The axis rests at one end (a pedal, a trigger): 0..1 from raw_min to raw_max. Otherwise
  /// it rests in the middle (a stick, a wheel): −1..1.
  bool pedal = false;
  bool invert = false;      ///< the other way round (a pedal: 1 at raw_min)
  double dead_zone = 0.0;   ///< [0, 1): this much of the travel about the rest reads 0
  double exponent = 1.0;    ///< the curve: |n|^exponent, sign kept (> 1: finer about the rest)
  double scale = 1.0;       ///< the channel's value at full deflection
  double rate_limit = 0.0;  ///< [1/s]: full deflections per second at most; 0: no limit
};

struct AxisMapping {
  Device device = Device::gamepad;
  /// gamepad: axes[index] (buttons[index] when analog_button); evdev: the EV_ABS code.
  std::uint32_t index = 0;
  /// gamepad: the axis is buttons[index]'s value 0..1 (an analog trigger).
  bool analog_button = false;
  /// keyboard: the keys that push the axis to +1, and to −1 (KeyboardEvent.code).
  std::vector<std::string> positive_keys, negative_keys;
  std::string channel;  ///< an input channel of the rig
  /// The channel's range (what a write may set): the sum of the axes on it is clamped to it.
  double channel_min = -std::numeric_limits<double>::infinity();
  double channel_max = std::numeric_limits<double>::infinity();
  AxisShape shape;
};

/// A press sets `channel` to `value` (the driver.mode channel: takes or gives back the wheel).
struct ButtonMapping {
  Device device = Device::gamepad;
  std::uint32_t index = 0;  ///< gamepad: buttons[index]; evdev: the EV_KEY code
  std::string key;          ///< keyboard: KeyboardEvent.code
  std::string channel;
  double value = 1.0;
  /// A press while the channel holds `value` sets it to 0 instead (one key takes and gives).
  bool toggle = false;
};

struct DriverSpec {
  std::vector<AxisMapping> axes;
  std::vector<ButtonMapping> buttons;
  /// A Linux input device (or a FIFO of input_event records) read for the evdev controls; ""
  /// none (hilsim run --joystick PATH gives one).
  std::string evdev_device;
  /// The built-in ECU's speed demand at full throttle in HUMAN mode, electric drive [m/s].
  double max_speed = 5.0;
};

}  // namespace hil::io::input
