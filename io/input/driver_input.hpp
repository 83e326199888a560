#pragma once
// A driver in the loop (docs/console.md "Driving"): the state of the driver's controls from
// every device (the page's gamepad and keyboard, an evdev joystick) and, at each pump(), the
// channel writes they make — shaped (axis_shaping.hpp), rate-limited in time, written on a
// change beyond 0.2 % of full scale (the rest, the ends of the channel's range and full scale
// always) and at most every 19 ms per channel (≈ 50 Hz), so that the command queue and
// commands.log see what the vehicle should, not every jitter of a stick. A held axis keeps
// ramping at its rate limit from pump to pump.
//
// Who drives: driver.mode. A button mapped to it (or set_human) takes the wheel (HUMAN: the
// mode and the mapped channels are written, forced until released) or gives it back (AUTO:
// every channel this input forced is released, the mode last, so nothing it wrote stays to
// fight the ECU). In AUTO the axes and other buttons write nothing. A page's device that has
// not reported for a second (a closed tab, a lost lock) rests: its axes read 0.
//
// Thread-safety: every method may be called from any thread (one mutex inside); the sink is
// called from pump() with that mutex held, so it must not call back into the input. `now` is
// seconds on one monotonic clock for all calls. Non-RT: allocates, locks.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/input/axis_shaping.hpp"
#include "io/input/driver_mapping.hpp"

namespace hil::io::input {

struct DriverCounters {
  std::uint64_t writes = 0;    ///< channel writes the sink took
  std::uint64_t releases = 0;  ///< channel releases the sink took
  std::uint64_t refused = 0;   ///< writes and releases the sink refused (tried again later)
  std::uint64_t presses = 0;   ///< button presses, every device
};

/// What the driver's channels hold as written (the last value each write set).
struct DriverStatus {
  bool human = false;
  std::vector<std::pair<std::string, double>> values;  ///< channel → last written value
};

class DriverInput {
 public:
  /// Applies a write of `value` to `channel`, or (no value) its release; false when it cannot
  /// now (a full queue): the pump tries again next time.
  using Sink = std::function<bool(const std::string& channel, std::optional<double> value)>;

  /// A page's device that has not reported for this long rests [s].
  static constexpr double kStaleS = 1.0;
  /// The shortest time between two writes of one channel [s].
  static constexpr double kMinWriteIntervalS = 0.019;

  explicit DriverInput(DriverSpec spec);

  // ---- the devices (any thread) ----
  /// The page's gamepad: every axis (−1..1) and every button's value (0..1; > 0.5 pressed).
  void gamepad(std::span<const double> axes, std::span<const double> buttons, double now);
  /// The page's keyboard: the keys held now (KeyboardEvent.code).
  void keyboard(std::span<const std::string> held, double now);
  /// An evdev EV_ABS event (raw value) and EV_KEY event.
  void evdev_axis(std::uint32_t code, double raw, double now);
  void evdev_button(std::uint32_t code, bool pressed, double now);
  /// The evdev device's range of an axis (EVIOCGABSINFO), over the rig file's.
  void evdev_range(std::uint32_t code, double min, double max);
  /// The evdev device went away: its axes rest, its buttons are up.
  void evdev_gone();
  /// Takes (true) or gives back the wheel, as a button on driver.mode does.
  void set_human(bool human);

  /// The writes and releases due at `now` (see the header comment), each through `sink`.
  void pump(double now, const Sink& sink);

  [[nodiscard]] DriverStatus status() const;
  [[nodiscard]] DriverCounters counters() const;
  /// Whether any control comes from `device`.
  [[nodiscard]] bool uses(Device device) const noexcept;
  /// The mapping (its EVDEV axes' raw ranges are evdev_range()'s: read the devices, indices
  /// and channels, which never change).
  [[nodiscard]] const DriverSpec& spec() const noexcept { return spec_; }

 private:
  struct ChannelState {
    std::string name;
    double min = 0.0, max = 0.0;
    double full_scale = 0.0;  ///< its axes' largest |scale|: the epsilon's measure
    bool from_axes = false;
    std::optional<double> button_value;  ///< the last press's value (a button's channel)
    std::optional<double> written;       ///< what the last write set (forced since)
    double written_at = 0.0;
  };
  struct AxisState {
    std::optional<double> raw;  ///< unknown until heard, and while its device rests
    RateLimiter limiter;
  };

  std::size_t channel_index(const std::string& name, double min, double max);
  void press(std::size_t button);
  void heard(Device device, double now);
  void rest(Device device);
  /// AUTO: releases what is forced; true when nothing is left.
  bool release_all(const Sink& sink);
  bool write(ChannelState& c, double value, double now, const Sink& sink);

  DriverSpec spec_;
  mutable std::mutex mutex_;
  std::vector<ChannelState> channels_;
  std::size_t mode_ = 0;                     ///< driver.mode's index in channels_
  std::vector<AxisState> axes_;              ///< by spec_.axes
  std::vector<std::size_t> axis_channel_;    ///< by spec_.axes: index in channels_
  std::vector<std::size_t> button_channel_;  ///< by spec_.buttons
  std::vector<bool> button_down_;            ///< by spec_.buttons
  std::vector<double> heard_at_;             ///< by Device; NaN never
  bool human_ = false;
  std::optional<double> last_pump_;
  DriverCounters counters_;
};

}  // namespace hil::io::input
