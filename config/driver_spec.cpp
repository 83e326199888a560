#include "config/driver_spec.hpp"

#include "config/driver.pb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "config/text/suggest.hpp"
#include "io/input/driver_channels.hpp"

namespace hil::config {

namespace {

namespace input = io::input;

constexpr std::uint32_t kMaxGamepadIndex = 63;
constexpr std::uint32_t kMaxAbsCode = 0x3f;   // ABS_MAX
constexpr std::uint32_t kMaxKeyCode = 0x2ff;  // KEY_MAX
constexpr double kMaxDeadZone = 0.9;
constexpr double kMinExponent = 0.2;
constexpr double kMaxExponent = 5.0;
constexpr double kMaxRateLimit = 1000.0;
constexpr double kMinSpeed = 0.1;
constexpr double kMaxSpeed = 100.0;

/// KeyboardEvent.code: letters and digits ("KeyA", "ArrowLeft", "Digit1", "Space").
bool is_key_code(const std::string& key) {
  return !key.empty() && key.size() <= 32 && std::ranges::all_of(key, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c));
  });
}

class Checker {
 public:
  Checker(std::string_view prefix, const SourceMap& sources, ConfigErrors& errors)
      : prefix_(prefix), sources_(sources), errors_(errors) {}

  void fail(const std::string& field, std::string message) const {
    errors_.push_back(sources_.error(fmt::format("{}.{}", prefix_, field), std::move(message)));
  }
  /// `value` of an optional field within [low, high].
  void range(const std::string& field, bool has, double value, double low, double high,
             const char* what) const {
    if (has && !(value >= low && value <= high)) {
      fail(field, fmt::format("{} is out of range; expected {}..{} ({})", value, low, high, what));
    }
  }
  void keys(const std::string& field,
            const google::protobuf::RepeatedPtrField<std::string>& keys) const {
    for (int k = 0; k < keys.size(); ++k) {
      if (!is_key_code(keys.Get(k))) {
        fail(fmt::format("{}[{}]", field, k),
             fmt::format("\"{}\" is not a key's KeyboardEvent.code; expected e.g. \"ArrowLeft\", "
                         "\"KeyW\", \"Space\"",
                         keys.Get(k)));
      }
    }
  }

 private:
  std::string prefix_;
  const SourceMap& sources_;
  ConfigErrors& errors_;
};

void check_axis(const DriverAxis& a, const std::string& at, const Checker& check) {
  const bool keyboard = a.device() == DriverAxis::KEYBOARD;
  const bool evdev = a.device() == DriverAxis::EVDEV;
  const bool has_keys = a.positive_keys_size() + a.negative_keys_size() > 0;
  if (keyboard) {
    if (a.positive_keys_size() == 0) {
      check.fail(at + ".positive_keys",
                 "a KEYBOARD axis needs its keys; expected positive_keys: \"ArrowUp\" (and "
                 "negative_keys for a centred axis)");
    }
    if (a.pedal() && a.negative_keys_size() > 0) {
      check.fail(at + ".negative_keys", "a pedal goes 0..1: it has positive_keys only");
    }
    if (a.has_index() || a.analog_button()) {
      check.fail(at + (a.has_index() ? ".index" : ".analog_button"),
                 "a KEYBOARD axis is made of keys (positive_keys, negative_keys)");
    }
    check.keys(at + ".positive_keys", a.positive_keys());
    check.keys(at + ".negative_keys", a.negative_keys());
  } else if (has_keys) {
    check.fail(at + (a.positive_keys_size() > 0 ? ".positive_keys" : ".negative_keys"),
               "keys are for a KEYBOARD axis (device: KEYBOARD)");
  }
  if (evdev) {
    if (!a.has_index())
      check.fail(at, "an EVDEV axis needs its EV_ABS code; expected index: 0 (ABS_X)");
    check.range(at + ".index", a.has_index(), a.index(), 0, kMaxAbsCode, "an EV_ABS code");
    if (a.analog_button()) check.fail(at + ".analog_button", "is for a GAMEPAD axis");
    if (!a.has_min() || !a.has_max()) {
      check.fail(at,
                 "an EVDEV axis needs its raw range, used when the device does not report "
                 "it (a FIFO); expected min: 0 max: 255");
    } else if (!(a.max() > a.min()) || !std::isfinite(a.min()) || !std::isfinite(a.max())) {
      check.fail(at + ".max",
                 fmt::format("{}: expected a number above min ({})", a.max(), a.min()));
    }
  } else {
    if (a.has_min() || a.has_max()) {
      check.fail(at + (a.has_min() ? ".min" : ".max"),
                 "only an EVDEV axis takes a raw range (a gamepad axis is −1..1, a trigger and a "
                 "key 0..1)");
    }
    if (!keyboard) {
      check.range(
          at + ".index", a.has_index(), a.index(), 0, kMaxGamepadIndex,
          a.analog_button() ? "the Gamepad API's buttons[index]" : "the Gamepad API's axes[index]");
    }
  }
  check.range(at + ".dead_zone", a.has_dead_zone(), a.dead_zone(), 0.0, kMaxDeadZone,
              "of the travel about the rest");
  check.range(at + ".exponent", a.has_exponent(), a.exponent(), kMinExponent, kMaxExponent,
              "the curve |n|^exponent; 1 linear");
  check.range(at + ".rate_limit", a.has_rate_limit(), a.rate_limit(), 0.0, kMaxRateLimit,
              "full deflections per second; 0 none");
  if (a.has_scale() && (!std::isfinite(a.scale()) || a.scale() == 0.0)) {
    check.fail(at + ".scale", fmt::format("{}: expected a finite number other than 0", a.scale()));
  }
}

void check_button(const DriverButton& b, const std::string& at, const Checker& check) {
  switch (b.device()) {
    case DriverAxis::KEYBOARD:
      if (!is_key_code(b.key())) {
        check.fail(at + ".key", fmt::format("\"{}\": a KEYBOARD button needs its key's "
                                            "KeyboardEvent.code; expected e.g. key: \"KeyH\"",
                                            b.key()));
      }
      if (b.has_index()) check.fail(at + ".index", "a KEYBOARD button is a key (key: \"KeyH\")");
      break;
    case DriverAxis::EVDEV:
      if (!b.has_index())
        check.fail(at, "an EVDEV button needs its EV_KEY code; expected index: 304");
      check.range(at + ".index", b.has_index(), b.index(), 0, kMaxKeyCode, "an EV_KEY code");
      break;
    default:
      check.range(at + ".index", b.has_index(), b.index(), 0, kMaxGamepadIndex,
                  "the Gamepad API's buttons[index]");
  }
  if (b.device() != DriverAxis::KEYBOARD && b.has_key()) {
    check.fail(at + ".key", "a key is for a KEYBOARD button (device: KEYBOARD)");
  }
  if (b.has_value() && !std::isfinite(b.value()))
    check.fail(at + ".value", "expected a finite number");
}

/// The channel `name` of `table` as an input a control may write, or nullptr after an error.
const rt::ChannelSpec* control_channel(const rt::ChannelTable& table, const std::string& name,
                                       const std::string& field, const Checker& check) {
  if (name.empty()) {
    check.fail(field, "no channel; expected e.g. channel: \"driver.steer\"");
    return nullptr;
  }
  const std::optional<rt::ChannelId> id = table.find(name);
  if (!id) {
    std::vector<std::string> inputs;
    for (const rt::ChannelSpec& s : table.specs()) {
      if (s.direction == rt::Direction::input) inputs.push_back(s.name);
    }
    const auto near = closest_name(name, inputs);
    check.fail(field, fmt::format("\"{}\" is not a channel of the rig{}; expected an input channel "
                                  "(hilsim check --print)",
                                  name, near ? fmt::format(" (did you mean {}?)", *near) : ""));
    return nullptr;
  }
  const rt::ChannelSpec& spec = table.spec(*id);
  if (spec.direction != rt::Direction::input) {
    check.fail(field,
               fmt::format("{} is an output of the rig; a control writes an input channel", name));
    return nullptr;
  }
  return &spec;
}

input::Device device_of(DriverAxis::Device d) {
  return d == DriverAxis::KEYBOARD ? input::Device::keyboard
         : d == DriverAxis::EVDEV  ? input::Device::evdev
                                   : input::Device::gamepad;
}

input::AxisMapping to_mapping(const DriverAxis& a, const rt::ChannelSpec& channel) {
  input::AxisMapping m{.device = device_of(a.device()),
                       .index = a.index(),
                       .analog_button = a.analog_button(),
                       .positive_keys = {a.positive_keys().begin(), a.positive_keys().end()},
                       .negative_keys = {a.negative_keys().begin(), a.negative_keys().end()},
                       .channel = channel.name,
                       .channel_min = channel.min,
                       .channel_max = channel.max};
  input::AxisShape& s = m.shape;
  s.pedal = a.pedal();
  s.invert = a.invert();
  s.dead_zone = a.dead_zone();
  s.exponent = a.has_exponent() ? a.exponent() : 1.0;
  s.rate_limit = a.rate_limit();
  s.scale = a.has_scale() ? a.scale() : 1.0;
  switch (m.device) {
    case input::Device::evdev:
      s.raw_min = a.min();
      s.raw_max = a.max();
      break;
    case input::Device::keyboard:  // a key pushes 0..1, a pair of keys −1..1
    case input::Device::gamepad:   // an axis is −1..1, a trigger 0..1
      s.raw_min =
          a.analog_button() || (m.device == input::Device::keyboard && a.pedal()) ? 0.0 : -1.0;
      s.raw_max = 1.0;
      break;
  }
  return m;
}

}  // namespace

ConfigErrors check_driver_fields(const Driver& driver, std::string_view prefix,
                                 const SourceMap& sources) {
  ConfigErrors errors;
  const Checker check(prefix, sources, errors);
  for (int i = 0; i < driver.axes_size(); ++i) {
    check_axis(driver.axes(i), fmt::format("axes[{}]", i), check);
  }
  for (int i = 0; i < driver.buttons_size(); ++i) {
    check_button(driver.buttons(i), fmt::format("buttons[{}]", i), check);
  }
  check.range("max_speed", driver.has_max_speed(), driver.max_speed(), kMinSpeed, kMaxSpeed,
              "m/s at full throttle");
  if (driver.has_evdev_device() && driver.evdev_device().empty()) {
    check.fail("evdev_device", "empty; leave it out for none, or give the device's path");
  }
  return errors;
}

ConfigErrors check_driver(const Driver& driver, const rt::ChannelTable& table,
                          std::string_view prefix, const SourceMap& sources,
                          io::input::DriverSpec& out) {
  ConfigErrors errors;
  const Checker check(prefix, sources, errors);
  std::set<std::string> axis_channels;
  for (int i = 0; i < driver.axes_size(); ++i) {
    const DriverAxis& a = driver.axes(i);
    const std::string field = fmt::format("axes[{}].channel", i);
    if (a.channel() == input::kModeChannel) {
      check.fail(field,
                 "driver.mode is set by buttons (value 1 takes the wheel, 0 gives it "
                 "back), not by an axis");
      continue;
    }
    const rt::ChannelSpec* c = control_channel(table, a.channel(), field, check);
    if (c == nullptr) continue;
    axis_channels.insert(c->name);
    out.axes.push_back(to_mapping(a, *c));
  }
  for (int i = 0; i < driver.buttons_size(); ++i) {
    const DriverButton& b = driver.buttons(i);
    const std::string at = fmt::format("buttons[{}]", i);
    const rt::ChannelSpec* c = control_channel(table, b.channel(), at + ".channel", check);
    if (c == nullptr) continue;
    if (axis_channels.contains(c->name)) {
      check.fail(at + ".channel", fmt::format("{} is an axis's channel; a button sets a channel no "
                                              "axis drives",
                                              c->name));
      continue;
    }
    const double value = b.has_value() ? b.value() : 1.0;
    const bool mode = c->name == input::kModeChannel;
    if (mode ? value != input::kModeAuto && value != input::kModeHuman
             : value < c->min || value > c->max) {
      check.fail(
          at + ".value",
          mode ? fmt::format("{}: driver.mode is 0 (AUTO: give the wheel back) or 1 "
                             "(HUMAN: take it)",
                             value)
               : fmt::format("{} is outside {}'s range [{}, {}]", value, c->name, c->min, c->max));
      continue;
    }
    out.buttons.push_back({.device = device_of(b.device()),
                           .index = b.index(),
                           .key = b.key(),
                           .channel = c->name,
                           .value = value,
                           .toggle = b.toggle()});
  }
  out.evdev_device = driver.evdev_device();
  out.max_speed = driver.has_max_speed() ? driver.max_speed() : io::input::DriverSpec{}.max_speed;
  return errors;
}

}  // namespace hil::config
