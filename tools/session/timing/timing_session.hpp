#pragma once
// `hilsim timing`: the executive on this machine, in real time, with a synthetic load (busy
// work each tick) or a rig's own tick as the load (its recipe: live sources, the built-in ECU,
// nothing recorded), and optionally cyclictest alike for comparison.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/console/console_spec.hpp"
#include "rt_core/overrun_policy.hpp"
#include "rt_core/time.hpp"
#include "tools/session/timing/timing_report.hpp"

namespace hil::session {

/// The flags as given: executive and RT settings apply only when given; the rest comes from
/// the rig file (--rig or --config) and its overlays, else rt_core's defaults.
struct TimingSpec {
  std::optional<rt::Nanoseconds> period;
  rt::Nanoseconds duration = 10 * rt::kSecond;
  std::optional<int> priority;
  std::optional<int> cpu;
  double load_us = 20.0;    ///< the synthetic load's work per tick
  std::string rig;          ///< a rig's own tick as the load ("" the synthetic one)
  std::string config_path;  ///< a rig file whose executive settings to take
  std::vector<std::filesystem::path> overlays;
  std::optional<rt::OverrunKind> policy;
  std::optional<std::uint32_t> catch_up_max;
  std::optional<std::uint32_t> stop_after;
  std::optional<std::int64_t> window_ticks;
  bool compare_cyclictest = false;
  bool quiet = false;
  io::console::ConsoleSpec console;
};

/// Runs, printing progress; the figures, or nullopt after printing why the rig does not load.
[[nodiscard]] std::optional<TimingReport> run_timing(const TimingSpec& options);

}  // namespace hil::session
