#pragma once
// How fast simulated time runs against the wall clock: the harness's choice of clock
// (`hilsim run --speed max|realtime|F`, `hilsim replay --speed`, `hilsim play --speed`).
//   realtime  CLOCK_MONOTONIC, the RT setup of the rig (the default; what a real ECU needs)
//   max       as fast as the machine can (SIL): no sleeping, no RT privileges needed
//   F         F × real time on the monotonic clock (0.5: half speed), no RT privileges

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "rt_core/clock.hpp"

namespace hil::session {

struct Speed {
  enum class Mode : std::uint8_t { realtime, max, factor };
  Mode mode = Mode::realtime;
  double factor = 1.0;  ///< Mode::factor only

  /// "realtime", "max" or a factor in (0, 1e6]; nullopt for anything else.
  [[nodiscard]] static std::optional<Speed> parse(std::string_view text);
  /// "realtime", "max", "2x".
  [[nodiscard]] std::string to_string() const;
  [[nodiscard]] bool realtime() const noexcept { return mode == Mode::realtime; }
  /// The clock that runs at this speed (setup phase).
  [[nodiscard]] std::unique_ptr<rt::Clock> make_clock() const;
  /// rt::ExecutiveSpec::task_timing_stride at this speed: every tick in real time (the
  /// per-task figures are what `hilsim timing` is for), every 16th faster or slower than it.
  [[nodiscard]] std::uint32_t task_timing_stride() const noexcept { return realtime() ? 1 : 16; }
};

/// What --speed accepts, for --help and error messages.
inline constexpr std::string_view kSpeedHelp =
    "max (as fast as possible), realtime, or a factor of real time in (0, 1e6] (2 = twice as "
    "fast, 0.5 = half)";

}  // namespace hil::session
