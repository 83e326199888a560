#include "tools/run_session.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

#include "config/rig_runtime.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/rt_log.hpp"
#include "rt_core/rt_setup.hpp"
#include "rt_core/rt_thread.hpp"
#include "tools/rig_locator.hpp"
#include "tools/run_directory.hpp"
#include "tools/run_recording.hpp"
#include "tools/run_report.hpp"
#include "tools/timing_report.hpp"

namespace hil::tools {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_run_interrupt(int /*signal*/) { g_interrupted = 1; }

/// Progress while the RT thread runs; Ctrl-C and SIGTERM become a clean stop.
void watch(rt::Executive& exec, rt::RtLog& log, const std::atomic<bool>& done,
           const RunReport& report, bool quiet) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  auto last = start;
  while (!done.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (g_interrupted != 0) exec.request_stop();
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::seconds(tty ? 1 : 10)) continue;
    last = now;
    log.drain(*spdlog::default_logger(), 3);
    if (quiet) continue;
    fmt::print(stderr, "{}\n", progress_line(report, exec.stats().snapshot(), now - start));
  }
  log.drain(*spdlog::default_logger(), 10);
}

}  // namespace

int run_rig(const RunOptions& o) {
  const auto wall_start = std::chrono::system_clock::now();
  RunReport report;
  report.rig = rig_name(o.rig);
  report.rig_file = locate_rig(o.rig);
  const std::vector<std::filesystem::path> overlays(o.overlays.begin(), o.overlays.end());
  const config::LoadResult loaded = config::load_rig_config(report.rig_file, overlays);
  if (!loaded.ok()) {
    for (const config::ConfigError& e : loaded.errors) fmt::print(stderr, "{}\n", e.to_string());
    fmt::print(stderr, "FAILED {}: {} error{}\n", report.rig_file.string(), loaded.errors.size(),
               loaded.errors.size() == 1 ? "" : "s");
    return 1;
  }
  config::RigSettings settings = *loaded.settings;
  report.settings = &settings;
  rt::RtOptions rt_options = settings.rt;
  if (o.no_rt) rt_options = {.priority = 0, .lock_memory = false, .hold_dma_latency = false};
  report.ticks_wanted = -1;
  if (o.duration) {
    report.ticks_wanted = std::max<std::int64_t>(
        1, *rt::parse_duration(*o.duration) / settings.executive.period);
  }

  config::RigRuntime rig(settings, {.can_uri = o.can_uri});
  report.runtime = &rig;
  std::vector<rt::TaskEntry> tasks = rig.tasks();

  // Recording (issue 6): the run directory, then the recorders fed every tick
  const std::int64_t period_ns = settings.executive.period;
  const std::int64_t epoch_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    wall_start.time_since_epoch())
                                    .count();
  std::unique_ptr<Recording> recording;
  if (!o.no_record) {
    report.run_dir = make_run_directory(
        o.record_dir ? std::optional<std::filesystem::path>(*o.record_dir) : std::nullopt,
        o.runs_dir, report.rig, wall_start);
    report.config_hash = config_hash(save_rig(settings, *report.run_dir));
    report.start_epoch_ns = epoch_ns;
    write_json(*report.run_dir, "manifest.json", manifest_json(report));
    recording = std::make_unique<Recording>(rig, *report.run_dir, period_ns, epoch_ns, report.rig);
    tasks.push_back({.name = "record", .task = recording.get()});
  }
  if (o.can_uri) {
    fmt::print(stderr, "waiting for the ECU on {}: the vehicle is held in its safe state until "
                       "its frames arrive\n",
               *o.can_uri);
  }

  rt::RtLog log(64);
  rt::MonotonicClock clock;
  rt::Executive exec(settings.executive, tasks, clock, &log);
  rt::RtProcessGuard process(rt_options, report.status);
  std::atomic<bool> done{false};
  g_interrupted = 0;
  std::signal(SIGINT, on_run_interrupt);
  std::signal(SIGTERM, on_run_interrupt);
  const auto loop_start = std::chrono::steady_clock::now();
  {
    rt::RtThread thread(rt_options, report.status, [&] {
      report.result = exec.run(report.ticks_wanted);
      done.store(true, std::memory_order_release);
    });
    for (const std::string& w : report.status.warnings) spdlog::warn("{}", w);
    watch(exec, log, done, report, o.quiet);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  report.wall = std::chrono::steady_clock::now() - loop_start;
  report.interrupted = g_interrupted != 0;
  report.stats = exec.stats().snapshot();
  if (recording) {
    recording->stop();
    report.recording = recording->counters();
    write_json(*report.run_dir, "timing.json", timing_json(report));
    write_json(*report.run_dir, "manifest.json", manifest_json(report));
  }
  fmt::print("{}", run_summary(report));
  return report.result.reason == rt::StopReason::overrun_limit ? 3 : 0;
}

}  // namespace hil::tools
