#include "tools/cli/ecu_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "rt_core/executive.hpp"
#include "rt_core/rt_thread.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/ecu/virtual_ecu.hpp"
#include "tools/scenario/scenario_settings.hpp"
#include "tools/session/ecu_report.hpp"
#include "tools/session/rig_locator.hpp"

namespace hil::cli {

namespace {

struct EcuOptions {
  std::string rig;
  std::string can;
  std::string scenario;
  double speed = 1.0;
  std::string duration;
  std::string period = "1ms";
  int priority = 0;
  std::string json_path;
  bool quiet = false;
};

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int /*signal*/) { g_stop = 1; }

/// The scenario and the rig it runs on; prints located errors and fails with status 2.
scenario::ScenarioLoadResult load(const EcuOptions& o) {
  const std::filesystem::path rig_file = session::locate_rig(o.rig);
  if (!o.scenario.empty()) {
    scenario::ScenarioLoadResult loaded =
        scenario::load_scenario(session::locate_scenario(o.scenario), rig_file);
    if (!loaded.ok()) {
      for (const config::ConfigError& e : loaded.errors) fmt::print(stderr, "{}\n", e.to_string());
      throw CLI::RuntimeError(2);
    }
    return loaded;
  }
  config::LoadResult rig = config::load_rig_config(rig_file);
  if (!rig.ok()) {
    for (const config::ConfigError& e : rig.errors) fmt::print(stderr, "{}\n", e.to_string());
    throw CLI::RuntimeError(2);
  }
  // Without a scenario: straight ahead at --speed until stopped (or for --duration)
  scenario::ScenarioLoadResult loaded;
  loaded.scenario = scenario::constant_speed_scenario(*rig.settings, o.speed, 86'400.0);
  loaded.rig = std::move(rig.settings);
  return loaded;
}

/// Progress lines until the loop ends; turns SIGINT/SIGTERM into a stop and stops at the
/// scenario's end.
void watch(rt::Executive& exec, const ecu::VirtualEcu& ecu, const std::atomic<bool>& done,
           double scenario_end, std::optional<double> run_length, bool quiet) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto last = std::chrono::steady_clock::now();
  while (!done.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const ecu::EcuProgress p = ecu.progress();
    if (g_stop != 0 || p.time >= scenario_end || (run_length && p.elapsed >= *run_length)) {
      exec.request_stop();
    }
    const auto now = std::chrono::steady_clock::now();
    if (quiet || now - last < std::chrono::seconds(tty ? 1 : 5)) continue;
    last = now;
    std::uint64_t timeouts = 0;
    std::uint64_t errors = 0;
    for (std::size_t i = 0; i < ecu.bus().rx_count(); ++i) {
      timeouts += ecu.bus().rx_counters(i).timeouts.load(std::memory_order_relaxed);
      errors += ecu.bus().rx_counters(i).errors.load(std::memory_order_relaxed);
    }
    fmt::print(stderr,
               "[{:7.2f} s] {}speed ref {:5.2f} m/s, measured {:5.2f} m/s, cross-track "
               "{:+.3f} m, {:.1f} m along | rx errors {}, timeouts {}\n",
               p.time, p.holding ? "HOLDING (rig not heard) " : "", p.speed_ref, p.speed_measured,
               p.cross_track, p.progress, errors, timeouts);
  }
}

int run_ecu(const EcuOptions& o, const CLI::App& cmd) {
  const scenario::ScenarioLoadResult loaded = load(o);
  const scenario::ScenarioSettings& scenario = *loaded.scenario;
  std::optional<double> run_length;
  if (cmd.count("--duration") > 0) {
    run_length = static_cast<double>(duration_value(o.duration)) / 1e9;
  }
  const rt::Nanoseconds period = duration_value(o.period);
  ecu::VirtualEcu ecu(*loaded.rig, scenario,
                      {.can_uri = o.can,
                       .period_s = static_cast<double>(period) / 1e9,
                       .start_clock_on_input = true});
  rt::ExecutiveConfig config{.period = period};
  config.overrun.kind = rt::OverrunKind::skip;
  rt::MonotonicClock clock;
  rt::Executive exec(config, {{.name = "ecu", .task = &ecu}}, clock);

  session::EcuReport report{.rig = o.rig, .scenario = scenario.name, .uri = o.can};
  rt::RtOptions rt_options = loaded.rig->rt;
  rt_options.priority = o.priority;
  rt_options.cpu.reset();
  rt_options.hold_dma_latency = o.priority > 0;
  if (!o.quiet) {
    fmt::print(stderr, "hilsim ecu: {} on {} — {} ({:.0f} s); Ctrl-C stops\n", o.rig, o.can,
               scenario.description, scenario.duration_s);
  }
  rt::RtProcessGuard process(rt_options, report.status);
  std::atomic<bool> done{false};
  g_stop = 0;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  {
    rt::RtThread thread(rt_options, report.status, [&] {
      (void)exec.run(-1);
      done.store(true, std::memory_order_release);
    });
    if (o.priority > 0) {
      for (const std::string& w : report.status.warnings) spdlog::warn("{}", w);
    }
    watch(exec, ecu, done, scenario.duration_s, run_length, o.quiet);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  report.interrupted = g_stop != 0;
  session::collect(ecu, report);
  const bool finished = report.scenario_time_s >= scenario.duration_s - 0.1 && !report.interrupted;
  if (finished && !scenario.gates.empty()) report.verdict = ecu.verdict();
  fmt::print("{}", session::format_summary(report));
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << to_json(report).dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
  }
  return report.verdict && !report.verdict->passed ? 1 : 0;
}

}  // namespace

void add_ecu_command(CLI::App& app) {
  auto options = std::make_shared<EcuOptions>();
  CLI::App* cmd = app.add_subcommand(
      "ecu", "Play the virtual ECU of a rig over a CAN transport, as its own process");
  cmd->footer(
      "Examples:\n"
      "  hilsim ecu --rig ravon --can 'cannelloni://127.0.0.1:20000?local=127.0.0.1:20001'\n"
      "  hilsim ecu --rig ravon --can 'cannelloni://rig-pc:20000' --scenario double_lane_change\n"
      "  hilsim ecu --rig hmmwv --can slcan:/dev/ttyACM0 --speed 5 --duration 30s\n"
      "\n"
      "The ECU is the other end of the rig's first CAN bus (same DBC, counters and CRCs). It\n"
      "holds the vehicle (speed 0, parking brake) until every message the rig sends arrives,\n"
      "and whenever one times out. Rigs and scenarios by name come from hil_rigs/ (or\n"
      "$HILSIM_RIGS); a path to a file works too. Scenario time starts when the rig is first\n"
      "heard. Without --scenario it drives straight ahead at --speed until stopped.\n"
      "Exit status: 0; 1 when the scenario ran to its end and a gate failed; 2 for a bad\n"
      "rig or scenario file (every error printed as FILE:LINE:COLUMN: FIELD: PROBLEM).\n");
  cmd->add_option("--rig", options->rig, "Rig name (hil_rigs/NAME/rig.pbtxt) or rig file")
      ->required();
  cmd->add_option("--can", options->can,
                  "CAN transport URI: cannelloni://HOST:PORT[?local=ADDR:PORT], slcan:/dev/TTY, "
                  "socketcan:IFACE, virtual:NAME")
      ->required();
  auto* scenario = cmd->add_option("--scenario", options->scenario,
                                   "Scenario name (hil_rigs/scenarios/NAME.pbtxt) or file");
  cmd->add_option("--speed", options->speed,
                  "Without a scenario: drive straight at this speed [m/s]")
      ->check(CLI::Range(0.0, 100.0))
      ->excludes(scenario);
  cmd->add_option("--duration", options->duration,
                  "Stop after this much of the ECU's own running time (default: at the "
                  "scenario's end; without one, when stopped)")
      ->check(duration_in(rt::kMillisecond, rt::kSecond * 24 * 3600));
  cmd->add_option("--period", options->period, "The ECU loop's period (default 1ms)")
      ->check(duration_in(rt::kMinPeriod, rt::kMaxPeriod));
  cmd->add_option("--priority", options->priority, "SCHED_FIFO priority, 0 = normal thread")
      ->check(CLI::Range(0, 99));
  cmd->add_option("--json", options->json_path, "Also write the summary to this JSON file");
  cmd->add_flag("-q,--quiet", options->quiet, "No progress output");
  cmd->callback([options, cmd] {
    const int code = run_ecu(*options, *cmd);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace hil::cli
