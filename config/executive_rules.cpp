#include "config/executive_rules.hpp"

#include <fmt/format.h>

#include "rt_core/executive_spec.hpp"
#include "rt_core/overrun_policy.hpp"

namespace hil::config {

std::vector<IntegerRange> executive_ranges(std::string_view prefix, const Machine& machine) {
  const auto field = [prefix](std::string_view name) { return fmt::format("{}.{}", prefix, name); };
  return {
      {field("period_us"), rt::kMinPeriod / rt::kMicrosecond, rt::kMaxPeriod / rt::kMicrosecond,
       "microseconds"},
      {field("priority"), 0, kMaxFifoPriority, "SCHED_FIFO priority; 0 = normal scheduling"},
      {field("cpu"), 0, machine.configured_cpus - 1,
       fmt::format("CPU index; this machine has {} CPUs configured, "
                   "sysconf(_SC_NPROCESSORS_CONF); leave cpu out for no pinning",
                   machine.configured_cpus)},
      {field("catch_up.max_ticks"), 1, kMaxCatchUpTicks, "late ticks run in a row"},
      {field("stop_after.overruns"), 1, rt::kOverrunRecordCapacity,
       fmt::format("overruns; the executive keeps the last {}", rt::kOverrunRecordCapacity)},
  };
}

ConfigErrors check_executive_consistency(const Executive& executive, std::string_view prefix,
                                         const SourceMap& sources) {
  ConfigErrors errors;
  if (executive.has_stop_after()) {
    const Executive::StopAfter& stop = executive.stop_after();
    const rt::OverrunPolicy defaults;
    const std::int64_t overruns =
        stop.has_overruns() ? stop.overruns() : defaults.stop_after_overruns;
    const std::int64_t window =
        stop.has_window_ticks() ? stop.window_ticks() : defaults.stop_after_window_ticks;
    if (window < overruns) {
      errors.push_back(sources.error(
          fmt::format("{}.stop_after.window_ticks", prefix),
          fmt::format("a window of {} ticks{} cannot hold {} overruns{}; expected window_ticks "
                      ">= overruns",
                      window, stop.has_window_ticks() ? "" : " (the default)", overruns,
                      stop.has_overruns() ? "" : " (the default)")));
    }
  }
  return errors;
}

}  // namespace hil::config
