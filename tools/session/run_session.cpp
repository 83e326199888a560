#include "tools/session/run_session.hpp"

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
#include "tools/scenario/scenario_settings.hpp"
#include "tools/session/rig_setup.hpp"
#include "tools/session/run_directory.hpp"
#include "tools/session/run_recording.hpp"
#include "tools/session/run_report.hpp"
#include "tools/session/scenario_run.hpp"
#include "tools/session/sd_notify.hpp"
#include "tools/session/tick_counter_task.hpp"
#include "tools/session/timing_report.hpp"

namespace hil::session {

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

/// The verdict's first line and the gates one per line. A run cut short (--duration) judges
/// only the gates it reached.
std::string describe(const scenario::ScenarioVerdict& v, bool whole_run, bool& failed) {
  std::size_t reached = 0;
  failed = false;
  for (const scenario::GateResult& g : v.gates) {
    const bool counts = whole_run || g.reached;
    reached += counts ? 1 : 0;
    failed = failed || (counts && !g.passed);
  }
  std::string out =
      whole_run
          ? fmt::format("{} ({} gate{})", failed ? "FAILED" : "passed", v.gates.size(),
                        v.gates.size() == 1 ? "" : "s")
          : fmt::format("{} so far: the run ended at {:.1f} s, {} of {} gates reached",
                        failed ? "FAILED" : "passed", v.observed_until, reached, v.gates.size());
  for (const scenario::GateResult& g : v.gates) {
    const char* mark = !whole_run && !g.reached ? "  --" : g.passed ? "pass" : "FAIL";
    out += fmt::format("\n    [{}] {}: {}", mark, g.name, g.detail);
  }
  return out;
}

}  // namespace

int run_rig(const RunOptions& o) {
  const auto wall_start = std::chrono::system_clock::now();
  const std::unique_ptr<RigSetup> setup = set_up_rig(o.selection);
  if (!setup) return 1;
  const config::RigSettings& settings = setup->settings;
  RunReport report;
  report.rig = setup->rig;
  report.rig_file = setup->rig_file;
  if (setup->scenario_file) report.scenario = setup->scenario_file->stem().string();
  report.ecu = setup->ecu;
  report.settings = &settings;
  report.runtime = setup->runtime.get();
  config::RigRuntime& rig = *setup->runtime;
  session::ScenarioRun* scenario_run = setup->scenario_run.get();
  std::vector<rt::TaskEntry> tasks = setup->tasks;
  rt::RtOptions rt_options = settings.rt;
  if (o.no_rt) rt_options = {.priority = 0, .lock_memory = false, .hold_dma_latency = false};

  report.ticks_wanted = scenario_run ? scenario_run->ticks() : -1;
  if (o.duration) {
    report.ticks_wanted =
        std::max<std::int64_t>(1, *rt::parse_duration(*o.duration) / settings.executive.period);
  }

  // Recording (issue 6): the run directory, then the recorders fed every tick
  const std::int64_t period_ns = settings.executive.period;
  const std::int64_t epoch_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall_start.time_since_epoch()).count();
  std::unique_ptr<Recording> recording;
  if (!o.no_record) {
    report.run_dir = make_run_directory(
        o.record_dir ? std::optional<std::filesystem::path>(*o.record_dir) : std::nullopt,
        o.runs_dir, report.rig, wall_start);
    std::string saved = save_rig(settings, *report.run_dir);
    if (setup->scenario_file) saved += copy_scenario(*setup->scenario_file, *report.run_dir);
    report.config_hash = config_hash(saved);
    report.start_epoch_ns = epoch_ns;
    recording = std::make_unique<Recording>(rig, *report.run_dir, period_ns, epoch_ns, report.rig);
    tasks.push_back({.name = "record", .task = recording.get()});
  }
  if (o.selection.can_uri) {
    fmt::print(stderr,
               "waiting for the ECU on {}: the vehicle is held in its safe state until "
               "its frames arrive\n",
               *o.selection.can_uri);
  }

  // Last task: the count of complete ticks that feeds systemd's watchdog (Type=notify)
  TickCounterTask tick_counter;
  tasks.push_back({.name = "tick_counter", .task = &tick_counter});

  rt::RtLog log(64);
  rt::MonotonicClock clock;
  rt::Executive exec(settings.executive, tasks, clock, &log);
  const auto notify_start = std::chrono::steady_clock::now();
  RunNotifier notifier(tick_counter.ticks(), [&] {
    const rt::TimingSnapshot s = exec.stats().snapshot();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - notify_start).count();
    const double sim = static_cast<double>(s.ticks * settings.executive.period) * 1e-9;
    return format_run_status(s.ticks, wall > 0 ? sim / wall : 0.0, s.overruns);
  });
  notifier.status(fmt::format("starting rig {}", report.rig));
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
    // Written once the RT setup is known (real-time or not): a killed run keeps it
    if (report.run_dir) write_json(*report.run_dir, "manifest.json", manifest_json(report));
    const RunNotifierThread notifying(notifier);
    watch(exec, log, done, report, o.quiet);
    notifier.stopping();
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  report.wall = std::chrono::steady_clock::now() - loop_start;
  report.interrupted = g_interrupted != 0;
  report.stats = exec.stats().snapshot();
  if (scenario_run) {
    const bool whole = report.result.ticks >= scenario_run->ticks();
    report.verdict = describe(scenario_run->verdict(), whole, report.failed);
  }
  if (recording) {
    recording->stop();
    report.recording = recording->counters();
    write_json(*report.run_dir, "timing.json", timing_json(report));
    write_json(*report.run_dir, "manifest.json", manifest_json(report));
  }
  fmt::print("{}", run_summary(report));
  if (report.result.reason == rt::StopReason::overrun_limit) return 3;
  return report.failed ? 4 : 0;
}

}  // namespace hil::session
