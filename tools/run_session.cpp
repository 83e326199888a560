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
#include "config/scenario_settings.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/rt_log.hpp"
#include "rt_core/rt_setup.hpp"
#include "rt_core/rt_thread.hpp"
#include "tools/ecu/scenario_run.hpp"
#include "tools/rig_locator.hpp"
#include "tools/run_directory.hpp"
#include "tools/run_recording.hpp"
#include "tools/run_report.hpp"
#include "tools/sd_notify.hpp"
#include "tools/tick_counter_task.hpp"
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

/// The scenario to drive: --scenario, else the rig's default_scenario ("none": none).
std::optional<std::filesystem::path> scenario_file(const RunOptions& o,
                                                   const config::RigSettings& rig) {
  const std::string name = o.scenario.empty() ? rig.message.default_scenario() : o.scenario;
  if (name.empty() || name == "none") return std::nullopt;
  return locate_scenario(name);
}

void print_errors(const config::ConfigErrors& errors, const std::filesystem::path& file) {
  for (const config::ConfigError& e : errors) fmt::print(stderr, "{}\n", e.to_string());
  fmt::print(stderr, "FAILED {}: {} error{}\n", file.string(), errors.size(),
             errors.size() == 1 ? "" : "s");
}

/// The verdict's first line and the gates one per line. A run cut short (--duration) judges
/// only the gates it reached.
std::string describe(const ecu::ScenarioVerdict& v, bool whole_run, bool& failed) {
  std::size_t reached = 0;
  failed = false;
  for (const ecu::GateResult& g : v.gates) {
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
  for (const ecu::GateResult& g : v.gates) {
    const char* mark = !whole_run && !g.reached ? "  --" : g.passed ? "pass" : "FAIL";
    out += fmt::format("\n    [{}] {}: {}", mark, g.name, g.detail);
  }
  return out;
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
    print_errors(loaded.errors, report.rig_file);
    return 1;
  }
  config::RigSettings settings = *loaded.settings;
  // The scenario: its rig block applied over the rig, its ECU, events and gates
  std::optional<config::ScenarioSettings> scenario;
  const std::optional<std::filesystem::path> scenario_path = scenario_file(o, settings);
  if (scenario_path) {
    config::ScenarioLoadResult s = config::load_scenario(*scenario_path, report.rig_file, overlays);
    if (!s.ok()) {
      print_errors(s.errors, *scenario_path);
      return 1;
    }
    settings = std::move(*s.rig);
    scenario = std::move(*s.scenario);
    report.scenario = scenario_path->stem().string();
  }
  const bool virtual_ecu = !o.can_uri && o.ecu == "virtual" && scenario;
  if (!o.can_uri && o.ecu == "virtual" && !scenario) {
    spdlog::warn(
        "no scenario (--scenario NAME): the built-in ECU needs one to drive, so it is "
        "off and the vehicle stays in its safe state");
  }
  report.ecu = o.can_uri ? *o.can_uri : virtual_ecu ? "virtual (in process)" : "none";
  report.settings = &settings;
  rt::RtOptions rt_options = settings.rt;
  if (o.no_rt) rt_options = {.priority = 0, .lock_memory = false, .hold_dma_latency = false};

  config::RigRuntime rig(settings, {.can_uri = o.can_uri,
                                    .extra_input_channels = scenario ? scenario->marker_channels
                                                                     : std::vector<std::string>{}});
  report.runtime = &rig;
  std::unique_ptr<ecu::ScenarioRun> scenario_run;
  std::vector<rt::TaskEntry> tasks;
  if (scenario) {
    scenario_run =
        std::make_unique<ecu::ScenarioRun>(rig, *scenario, ecu::ScenarioRunOptions{virtual_ecu});
    tasks = scenario_run->tasks();
  } else {
    tasks = rig.tasks();
  }
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
    if (scenario_path) saved += copy_scenario(*scenario_path, *report.run_dir);
    report.config_hash = config_hash(saved);
    report.start_epoch_ns = epoch_ns;
    write_json(*report.run_dir, "manifest.json", manifest_json(report));
    recording = std::make_unique<Recording>(rig, *report.run_dir, period_ns, epoch_ns, report.rig);
    tasks.push_back({.name = "record", .task = recording.get()});
  }
  if (o.can_uri) {
    fmt::print(stderr,
               "waiting for the ECU on {}: the vehicle is held in its safe state until "
               "its frames arrive\n",
               *o.can_uri);
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

}  // namespace hil::tools
