#include "io/input/driver_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/input/driver_channels.hpp"

namespace hil::io::input {

namespace {

constexpr std::size_t kDevices = 3;
/// Written values are rounded to this (a ten-thousandth of full scale: commands.log stays
/// readable, the vehicle cannot tell).
constexpr double kResolution = 1e-4;
/// A change of a channel smaller than this share of its axes' full scale waits.
constexpr double kEpsilonShare = 0.002;

double rounded(double v) noexcept {
  const double r = std::round(v / kResolution) * kResolution;
  return r == 0.0 ? 0.0 : r;  // no "-0" in the log
}

std::size_t slot(Device d) noexcept { return static_cast<std::size_t>(d); }

}  // namespace

DriverInput::DriverInput(DriverSpec spec)
    : spec_(std::move(spec)), heard_at_(kDevices, std::numeric_limits<double>::quiet_NaN()) {
  mode_ = channel_index(std::string(kModeChannel), kModeAuto, kModeHuman);
  for (const AxisMapping& a : spec_.axes) {
    const std::size_t c = channel_index(a.channel, a.channel_min, a.channel_max);
    channels_[c].from_axes = true;
    channels_[c].full_scale = std::max(channels_[c].full_scale, std::abs(a.shape.scale));
    axis_channel_.push_back(c);
  }
  axes_.resize(spec_.axes.size());
  for (const ButtonMapping& b : spec_.buttons) {
    button_channel_.push_back(channel_index(b.channel, -std::numeric_limits<double>::infinity(),
                                            std::numeric_limits<double>::infinity()));
  }
  button_down_.assign(spec_.buttons.size(), false);
}

std::size_t DriverInput::channel_index(const std::string& name, double min, double max) {
  for (std::size_t i = 0; i < channels_.size(); ++i) {
    if (channels_[i].name == name) return i;
  }
  channels_.push_back({.name = name, .min = min, .max = max});
  return channels_.size() - 1;
}

bool DriverInput::uses(Device device) const noexcept {
  return std::ranges::any_of(spec_.axes,
                             [&](const AxisMapping& a) { return a.device == device; }) ||
         std::ranges::any_of(spec_.buttons,
                             [&](const ButtonMapping& b) { return b.device == device; });
}

void DriverInput::heard(Device device, double now) { heard_at_[slot(device)] = now; }

void DriverInput::press(std::size_t button) {
  const ButtonMapping& b = spec_.buttons[button];
  ChannelState& c = channels_[button_channel_[button]];
  ++counters_.presses;
  if (button_channel_[button] == mode_) {
    const bool human = b.toggle && human_ ? b.value < 0.5 : b.value >= 0.5;
    human_ = human;
    return;
  }
  if (!human_) return;  // the other buttons act for the driver only
  const double now_holds = c.button_value.value_or(0.0);
  c.button_value = b.toggle && now_holds == b.value ? 0.0 : b.value;
}

void DriverInput::gamepad(std::span<const double> axes, std::span<const double> buttons,
                          double now) {
  const std::lock_guard lock(mutex_);
  heard(Device::gamepad, now);
  for (std::size_t i = 0; i < spec_.axes.size(); ++i) {
    const AxisMapping& a = spec_.axes[i];
    if (a.device != Device::gamepad) continue;
    const std::span<const double> from = a.analog_button ? buttons : axes;
    axes_[i].raw = a.index < from.size() ? std::optional(from[a.index]) : std::nullopt;
  }
  for (std::size_t i = 0; i < spec_.buttons.size(); ++i) {
    const ButtonMapping& b = spec_.buttons[i];
    if (b.device != Device::gamepad) continue;
    const bool down = b.index < buttons.size() && buttons[b.index] > 0.5;
    if (down && !button_down_[i]) press(i);
    button_down_[i] = down;
  }
}

void DriverInput::keyboard(std::span<const std::string> held, double now) {
  const std::lock_guard lock(mutex_);
  heard(Device::keyboard, now);
  const auto any_held = [&](const std::vector<std::string>& keys) {
    return std::ranges::any_of(
        keys, [&](const std::string& k) { return std::ranges::find(held, k) != held.end(); });
  };
  for (std::size_t i = 0; i < spec_.axes.size(); ++i) {
    const AxisMapping& a = spec_.axes[i];
    if (a.device != Device::keyboard) continue;
    axes_[i].raw =
        (any_held(a.positive_keys) ? 1.0 : 0.0) - (any_held(a.negative_keys) ? 1.0 : 0.0);
  }
  for (std::size_t i = 0; i < spec_.buttons.size(); ++i) {
    const ButtonMapping& b = spec_.buttons[i];
    if (b.device != Device::keyboard) continue;
    const bool down = std::ranges::find(held, b.key) != held.end();
    if (down && !button_down_[i]) press(i);
    button_down_[i] = down;
  }
}

void DriverInput::evdev_axis(std::uint32_t code, double raw, double now) {
  const std::lock_guard lock(mutex_);
  heard(Device::evdev, now);
  for (std::size_t i = 0; i < spec_.axes.size(); ++i) {
    const AxisMapping& a = spec_.axes[i];
    if (a.device == Device::evdev && a.index == code) axes_[i].raw = raw;
  }
}

void DriverInput::evdev_button(std::uint32_t code, bool pressed, double now) {
  const std::lock_guard lock(mutex_);
  heard(Device::evdev, now);
  for (std::size_t i = 0; i < spec_.buttons.size(); ++i) {
    const ButtonMapping& b = spec_.buttons[i];
    if (b.device != Device::evdev || b.index != code) continue;
    if (pressed && !button_down_[i]) press(i);
    button_down_[i] = pressed;
  }
}

void DriverInput::evdev_range(std::uint32_t code, double min, double max) {
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max)) return;
  const std::lock_guard lock(mutex_);
  for (AxisMapping& a : spec_.axes) {
    if (a.device == Device::evdev && a.index == code) {
      a.shape.raw_min = min;
      a.shape.raw_max = max;
    }
  }
}

void DriverInput::rest(Device device) {
  for (std::size_t i = 0; i < spec_.axes.size(); ++i) {
    if (spec_.axes[i].device == device) axes_[i].raw.reset();
  }
  for (std::size_t i = 0; i < spec_.buttons.size(); ++i) {
    if (spec_.buttons[i].device == device) button_down_[i] = false;
  }
}

void DriverInput::evdev_gone() {
  const std::lock_guard lock(mutex_);
  rest(Device::evdev);
}

void DriverInput::set_human(bool human) {
  const std::lock_guard lock(mutex_);
  human_ = human;
}

bool DriverInput::write(ChannelState& c, double value, double now, const Sink& sink) {
  if (!sink(c.name, value)) {
    ++counters_.refused;
    return false;
  }
  c.written = value;
  c.written_at = now;
  ++counters_.writes;
  return true;
}

bool DriverInput::release_all(const Sink& sink) {
  // the controls first, the mode last: the ECU never sees HUMAN without them
  for (std::size_t pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < channels_.size(); ++i) {
      ChannelState& c = channels_[i];
      if ((i == mode_) != (pass == 1) || !c.written) continue;
      if (!sink(c.name, std::nullopt)) {  // the rest at the next pump, in the same order
        ++counters_.refused;
        return false;
      }
      c.written.reset();
      ++counters_.releases;
    }
  }
  return true;
}

void DriverInput::pump(double now, const Sink& sink) {
  const std::lock_guard lock(mutex_);
  const double dt = last_pump_ ? std::max(0.0, now - *last_pump_) : 0.0;
  last_pump_ = now;
  for (const Device d : {Device::gamepad, Device::keyboard}) {
    if (now - heard_at_[slot(d)] > kStaleS) rest(d);  // NaN: never heard, nothing to rest
  }
  if (!human_) {
    for (AxisState& a : axes_) a.limiter.reset();
    for (ChannelState& c : channels_) c.button_value.reset();
    (void)release_all(sink);
    return;
  }
  ChannelState& mode = channels_[mode_];
  if (mode.written != kModeHuman && !write(mode, kModeHuman, now, sink)) return;
  std::vector<double> value(channels_.size(), 0.0);
  for (std::size_t i = 0; i < spec_.axes.size(); ++i) {
    const AxisShape& s = spec_.axes[i].shape;
    const double target = axes_[i].raw ? shape_axis(s, *axes_[i].raw) : 0.0;
    value[axis_channel_[i]] += axes_[i].limiter.step(target, s.rate_limit * std::abs(s.scale), dt);
  }
  for (std::size_t i = 0; i < channels_.size(); ++i) {
    ChannelState& c = channels_[i];
    if (i == mode_) continue;
    double v = 0.0;
    if (c.from_axes) {
      v = rounded(std::clamp(value[i], c.min, c.max));
    } else if (c.button_value) {
      v = *c.button_value;
    } else {
      continue;  // a button's channel nobody pressed yet
    }
    if (c.written) {
      if (v == *c.written) continue;
      // the rest and the ends are written exactly, any other small change waits
      const bool exact = v == 0.0 || v == c.min || v == c.max || std::abs(v) == c.full_scale;
      if (!exact && std::abs(v - *c.written) < kEpsilonShare * c.full_scale) continue;
      if (now - c.written_at < kMinWriteIntervalS) continue;
    }
    (void)write(c, v, now, sink);
  }
}

DriverStatus DriverInput::status() const {
  const std::lock_guard lock(mutex_);
  DriverStatus out{.human = human_};
  for (const ChannelState& c : channels_) {
    if (c.written) out.values.emplace_back(c.name, *c.written);
  }
  return out;
}

DriverCounters DriverInput::counters() const {
  const std::lock_guard lock(mutex_);
  return counters_;
}

}  // namespace hil::io::input
