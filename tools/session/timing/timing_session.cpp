#include "tools/session/timing/timing_session.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "config/rig/loader.hpp"
#include "config/rig/rig_locator.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/run_builder.hpp"
#include "tools/session/timing/cyclictest.hpp"

namespace hil::session {

namespace {

/// Executive and RT settings: defaults, then the rig file and its overlays, then the flags.
/// False after printing the rig file's errors.
bool resolve_settings(const TimingSpec& o, TimingReport& report) {
  const std::string rig_file = o.rig.empty() ? o.config_path : config::locate_rig(o.rig).string();
  if (!rig_file.empty()) {
    const config::LoadResult loaded = config::load_rig_config(rig_file, o.overlays);
    if (!loaded.ok()) {
      print_config_errors(loaded.errors, rig_file);
      return false;
    }
    report.config = loaded.settings->executive;
    report.rt_options = loaded.settings->rt;
  }
  if (o.period) report.config.period = *o.period;
  rt::OverrunPolicy& policy = report.config.overrun;
  if (o.policy) policy.kind = *o.policy;
  if (o.catch_up_max) policy.catch_up_max = *o.catch_up_max;
  if (o.stop_after) policy.stop_after_overruns = *o.stop_after;
  if (o.window_ticks) policy.stop_after_window_ticks = *o.window_ticks;
  if (o.priority) report.rt_options.priority = *o.priority;
  if (o.cpu) report.rt_options.cpu = o.cpu;
  report.duration = o.duration;
  report.load = o.rig.empty() ? static_cast<rt::Nanoseconds>(o.load_us * 1e3) : 0;
  return true;
}

Recipe timing_recipe(const TimingSpec& o, const TimingReport& report) {
  Recipe r{.console = o.console,
           .clock = {.rt = report.rt_options, .executive = report.config},
           .quiet = o.quiet};
  if (o.rig.empty()) {
    r.synthetic_load = report.load;
    r.run_id = fmt::format("timing-{}", ::getpid());
  } else {  // the full rig: its tick is the load
    r.rig.rig = o.rig;
    for (const std::filesystem::path& overlay : o.overlays) r.rig.overlays.push_back(overlay);
    r.run_id = fmt::format("timing-{}-{}", config::rig_name(o.rig), ::getpid());
  }
  return r;
}

}  // namespace

std::optional<TimingReport> run_timing(const TimingSpec& o) {
  TimingReport report;
  if (!resolve_settings(o, report)) return std::nullopt;
  const std::int64_t ticks = std::max<std::int64_t>(1, report.duration / report.config.period);
  const std::unique_ptr<Run> run = RunBuilder(timing_recipe(o, report)).build();
  if (!run) return std::nullopt;
  if (run->rig) {
    report.workload = fmt::format(
        "rig {}{}, ECU {}", run->rig_name,
        run->scenario_file ? fmt::format(", scenario {}", run->scenario_file->stem().string())
                           : std::string(),
        run->ecu_description);
    for (const rt::StageEntry& s : run->harness->executive().stages()) {
      report.task_names.push_back(s.name);
    }
  }
  const RunOutcome outcome = run->run(
      ticks, {.progress = [&](const rt::TimingSnapshot& s, std::chrono::steady_clock::duration) {
        return fmt::format("[{:3.0f}%] {} ticks, {} overruns, wake-up p99 {:.0f} us, max {:.0f} us",
                           100.0 * static_cast<double>(s.ticks) / static_cast<double>(ticks),
                           s.ticks, s.overruns, s.wake_latency.percentile_us(0.99),
                           static_cast<double>(s.wake_latency.max_ns) / 1e3);
      }});
  report.status = outcome.status;
  report.result = outcome.result;
  report.stats = outcome.stats;
  if (o.compare_cyclictest) {
    if (!o.quiet) {
      fmt::print(stderr, "running cyclictest for {} with the same period, priority and CPU...\n",
                 rt::format_duration(ticks * report.config.period));
    }
    report.cyclictest = run_cyclictest({.period = report.config.period,
                                        .loops = ticks,
                                        .priority = report.rt_options.priority,
                                        .cpu = report.rt_options.cpu});
  }
  return report;
}

}  // namespace hil::session
