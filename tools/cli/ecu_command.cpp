#include "tools/cli/ecu_command.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "config/rig_locator.hpp"
#include "config/scenario/scenario_settings.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/ecu/virtual_ecu.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/ecu_report.hpp"
#include "tools/session/harness.hpp"

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

/// The scenario and the rig it runs on; prints located errors and fails with status 2.
config::ScenarioLoadResult load(const EcuOptions& o) {
  const std::filesystem::path rig_file = config::locate_rig(o.rig);
  if (!o.scenario.empty()) {
    config::ScenarioLoadResult loaded =
        config::load_scenario(config::locate_scenario(o.scenario), rig_file);
    config::require_rig(loaded, config::rig_name(o.rig));
    if (!loaded.ok()) {
      session::print_config_errors(loaded.errors, o.scenario);
      throw CLI::RuntimeError(2);
    }
    return loaded;
  }
  config::LoadResult rig = config::load_rig_config(rig_file);
  if (!rig.ok()) {
    session::print_config_errors(rig.errors, rig_file.string());
    throw CLI::RuntimeError(2);
  }
  // Without a scenario: straight ahead at --speed until stopped (or for --duration)
  config::ScenarioLoadResult loaded;
  loaded.scenario = config::constant_speed_scenario(*rig.settings, o.speed, 86'400.0);
  loaded.rig = std::move(rig.settings);
  return loaded;
}

/// "[  12.34 s] speed ref …": one progress line.
std::string progress_line(const ecu::VirtualEcu& ecu) {
  const ecu::EcuProgress p = ecu.progress();
  std::uint64_t timeouts = 0;
  std::uint64_t errors = 0;
  for (std::size_t i = 0; i < ecu.bus().rx_count(); ++i) {
    timeouts += ecu.bus().rx_counters(i).timeouts.load(std::memory_order_relaxed);
    errors += ecu.bus().rx_counters(i).errors.load(std::memory_order_relaxed);
  }
  return fmt::format(
      "[{:7.2f} s] {}speed ref {:5.2f} m/s, measured {:5.2f} m/s, cross-track "
      "{:+.3f} m, {:.1f} m along | rx errors {}, timeouts {}",
      p.time, p.holding ? "HOLDING (rig not heard) " : "", p.speed_ref, p.speed_measured,
      p.cross_track, p.progress, errors, timeouts);
}

int run_ecu(const EcuOptions& o, const CLI::App& cmd) {
  const config::ScenarioLoadResult loaded = load(o);
  const config::ScenarioSettings& scenario = *loaded.scenario;
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
  runtime::TickPlan plan;  // the ECU's side of the bus: it reads, drives, sends
  plan.add(runtime::Slot::peer_rx, "ecu_rx", ecu.receive_stage());
  plan.add(runtime::Slot::peer_update, "ecu", ecu.drive_stage(),
           static_cast<std::uint32_t>(ecu.cycle_ticks()));
  plan.add(runtime::Slot::peer_tx, "ecu_tx", ecu.send_stage());

  session::EcuReport report{.rig = o.rig, .scenario = scenario.name, .uri = o.can};
  rt::RtOptions rt_options = loaded.rig->rt;
  rt_options.priority = o.priority;
  rt_options.cpu.reset();
  rt_options.hold_dma_latency = o.priority > 0;
  rt_options.lock_memory = rt_options.lock_memory && o.priority > 0;  // 0: a normal process
  if (!o.quiet) {
    fmt::print(stderr, "hilsim ecu: {} on {} — {} ({:.0f} s); Ctrl-C stops\n", o.rig, o.can,
               scenario.description, scenario.duration_s);
  }
  session::Harness harness(config, std::move(plan),
                           {.rt = rt_options, .quiet = o.quiet, .name = "ecu " + o.rig});
  const session::RunOutcome outcome = harness.run(
      -1, {.progress = [&](const rt::TimingSnapshot&,
                           std::chrono::steady_clock::duration) { return progress_line(ecu); },
           .stop_when = [&] {  // the scenario's end, or --duration since the rig was first heard
             const ecu::EcuProgress p = ecu.progress();
             return p.time >= scenario.duration_s || (run_length && p.elapsed >= *run_length);
           }});
  report.status = outcome.status;
  report.interrupted = outcome.interrupted;
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
