#include "tools/cli/ecu_command.hpp"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tools/cli/cli_validators.hpp"
#include "tools/session/ecu/ecu_session.hpp"

namespace hil::cli {

namespace {

/// The flags as typed.
struct EcuFlags {
  session::EcuSpec options;
  std::string duration;
  std::string period = "1ms";
  std::string json_path;
};

}  // namespace

void add_ecu_command(CLI::App& app) {
  auto flags = std::make_shared<EcuFlags>();
  session::EcuSpec* options = &flags->options;
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
      "heard and holds while it is not; once the rig has been silent for 3 s the ECU stops (no\n"
      "verdict short of the scenario's end). Without --scenario it drives straight ahead at\n"
      "--speed until stopped.\n"
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
  cmd->add_option("--duration", flags->duration,
                  "Stop after this much of the ECU's own running time (default: at the "
                  "scenario's end; without one, when stopped)")
      ->check(duration_in(rt::kMillisecond, rt::kSecond * 24 * 3600));
  cmd->add_option("--period", flags->period, "The ECU loop's period (default 1ms)")
      ->check(duration_in(rt::kMinPeriod, rt::kMaxPeriod));
  cmd->add_option("--priority", options->priority, "SCHED_FIFO priority, 0 = normal thread")
      ->check(CLI::Range(0, 99));
  cmd->add_option("--json", flags->json_path, "Also write the summary to this JSON file");
  cmd->add_flag("-q,--quiet", options->quiet, "No progress output");
  cmd->callback([flags, cmd] {
    session::EcuSpec o = flags->options;
    o.period = duration_value(flags->period);
    if (cmd->count("--duration") > 0) o.duration = duration_value(flags->duration);
    const std::optional<session::EcuReport> report = session::run_ecu(o);
    if (!report) throw CLI::RuntimeError(2);
    fmt::print("{}", session::format_summary(*report));
    if (!flags->json_path.empty()) {
      std::ofstream out(flags->json_path);
      out << to_json(*report).dump(2) << "\n";
      if (!out) throw std::runtime_error("cannot write " + flags->json_path);
    }
    if (report->verdict && !report->verdict->passed) throw CLI::RuntimeError(1);
  });
}

}  // namespace hil::cli
