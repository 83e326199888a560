#include "tools/cli/check_command.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "config/executive_spec.hpp"
#include "config/rig/loader.hpp"
#include "config/rig/rig_document.hpp"
#include "config/rig/rig_locator.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "config/text/text_file.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/rig_channels.hpp"

namespace hil::cli {

namespace {

struct CheckSpec {
  std::string file;
  std::vector<std::string> overlays;
  std::string scenario;       ///< --scenario: check this scenario file on the rig `file`
  std::string rig = "ravon";  ///< --rig: the rig a scenario given as FILE is checked on
  bool print = false;         ///< --print: the resolved rig file to stdout
};

/// "hil_rigs/bench/rig.pbtxt (+1 overlay)".
std::string describe_files(const CheckSpec& o) {
  if (o.overlays.empty()) return o.file;
  return fmt::format("{} (+{} overlay{})", o.file, o.overlays.size(),
                     o.overlays.size() == 1 ? "" : "s");
}

/// The rig's channels as comments: what a CAN mapping, an overlay or a scenario event may
/// name.
void print_channels(const config::RigSpec& rig) {
  const std::vector<rt::ChannelSpec> channels = session::rig_channels(rig);
  fmt::print("# channels ({}): name [unit] direction\n", channels.size());
  for (const rt::ChannelSpec& c : channels) {
    fmt::print("#   {} [{}] {}\n", c.name, c.unit,
               c.direction == rt::Direction::input ? "input" : "output");
  }
}

/// The rig in text format under a "# header" line, then its channels.
void print_rig(const config::RigSpec& rig, const std::string& header) {
  fmt::print("# {}\n{}\n", header, config::rig_text(rig));
  print_channels(rig);
}

/// A scenario file on a rig: its errors and the rig's, or what it will drive and judge.
int check_scenario(const std::filesystem::path& scenario, const std::filesystem::path& rig,
                   const std::vector<std::filesystem::path>& overlays, bool print) {
  config::ScenarioLoadResult result = config::load_scenario(scenario, rig, overlays);
  config::require_rig(result, config::rig_name(rig.string()));
  if (!result.ok()) {
    session::print_config_errors(result.errors,
                                 fmt::format("{} on {}", scenario.string(), rig.string()));
    return 1;
  }
  if (print) {  // the rig as the scenario runs it: its rig block applied
    print_rig(*result.rig, fmt::format("{} with {}'s rig block", rig.string(), scenario.string()));
  }
  const config::ScenarioSpec& s = *result.scenario;
  fmt::print("OK {} on {}: \"{}\", {} s, {} path points, {} events, {} gates, {} faults\n",
             scenario.string(), rig.string(), s.description, s.duration_s, s.drive.path.size(),
             s.events.size(), s.gates.size(), s.faults.size());
  return 0;
}

/// "FILE:LINE:COL" of the `default_scenario` that took effect: the last overlay that sets it,
/// else the rig file.
std::string default_scenario_at(const CheckSpec& o) {
  std::vector<std::string> files(o.overlays.rbegin(), o.overlays.rend());
  files.push_back(o.file);
  for (const std::string& file : files) {
    std::istringstream in(config::read_text_file(file, config::kMaxConfigBytes).text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const auto col = line.find("default_scenario");
      if (col != std::string::npos && line.find_first_not_of(" \t") == col) {
        return fmt::format("{}:{}:{}", file, n, col + 1);
      }
    }
  }
  return o.file;
}

int run_check(const CheckSpec& o) {
  const std::vector<std::filesystem::path> overlays(o.overlays.begin(), o.overlays.end());
  if (!o.scenario.empty())
    return check_scenario(config::locate_scenario(o.scenario), o.file, overlays, o.print);
  if (config::looks_like_scenario(config::read_text_file(o.file, config::kMaxConfigBytes).text)) {
    return check_scenario(o.file, config::locate_rig(o.rig), overlays, o.print);
  }
  const config::LoadResult result = config::load_rig_config(o.file, overlays);
  if (!result.ok()) {
    session::print_config_errors(result.errors, describe_files(o));
    return 1;
  }
  const config::RigSpec& rig = *result.settings;
  session::print_config_warnings(rig);
  if (o.print) {  // the rig as a run would load it: overlays applied
    print_rig(rig, fmt::format("{} resolved (overlays applied, file paths as the loader resolved "
                               "them)",
                               describe_files(o)));
  }
  // The scenario `hilsim run` drives by default must exist before the rig is called OK
  const std::string& scenario = rig.default_scenario;
  std::filesystem::path scenario_file;
  if (!scenario.empty() && scenario != "none") {
    try {
      scenario_file = config::locate_scenario(scenario, o.file);
    } catch (const std::runtime_error& e) {  // not found: where it looked, what there is
      fmt::print(stderr, "{}: default_scenario: {}\n", default_scenario_at(o), e.what());
      fmt::print(stderr, "FAILED {}: 1 error\n", describe_files(o));
      return 1;
    }
  }
  fmt::print("OK {}: {}\n", describe_files(o), config::describe(rig.executive, rig.rt));
  if (rig.vehicle) {
    fmt::print("  vehicle: {} axles, {:.0f} kg sprung\n", rig.vehicle->axle_count,
               rig.vehicle->sprung.mass);
  }
  for (const io::can::CanBusSpec& bus : rig.can) {
    const auto count = [](const auto& list, auto&& pred) {
      return std::count_if(list.begin(), list.end(), pred);
    };
    const auto simulated =
        count(bus.tx, [](const io::can::TxMessageSpec& t) { return t.simulated; });
    const auto checked = count(bus.rx, [](const io::can::RxMessageSpec& r) { return r.dut; });
    fmt::print("  CAN {} ({}): {} messages received, {} sent", bus.name, bus.uri, bus.rx.size(),
               bus.tx.size());
    if (simulated > 0 || checked > 0) {
      fmt::print(" ({} for simulated nodes; {} from the device under test, checked)", simulated,
                 checked);
    }
    fmt::print("\n");
    for (const std::string& line : bus.plan) fmt::print("    {}\n", line);
  }
  for (const config::FmuSpec& f : rig.fmus) {
    fmt::print("  fmu {}: {} every {} tick{}, {} parameter{}, {} input{}, {} output{}\n",
               f.instance, f.path.string(), f.every_ticks, f.every_ticks == 1 ? "" : "s",
               f.parameters.size(), f.parameters.size() == 1 ? "" : "s", f.inputs.size(),
               f.inputs.size() == 1 ? "" : "s", f.outputs.size(), f.outputs.size() == 1 ? "" : "s");
  }

  if (const auto& d = rig.diagnostics) {
    fmt::print(
        "  diagnostics on {}: UDS requests 0x{:X} → 0x{:X}, functional 0x{:X}; {} DIDs, {} "
        "DTCs, {} routines\n",
        rig.can[d->bus].name, d->request_id, d->response_id, d->functional_id, d->dids.size(),
        d->dtcs.size(), d->routines.size());
  }
  for (const config::LidarSpec& l : rig.lidars) fmt::print("  lidar {}\n", config::describe(l));
  for (const config::RadarSpec& r : rig.radars) {
    fmt::print("  radar {}\n", config::describe(r, rig.can[r.bus]));
  }
  if (!rig.faults.empty()) fmt::print("  faults: {}\n", rig.faults.size());
  // The scenario `hilsim run` drives by default must load on this rig too
  if (scenario_file.empty()) return 0;
  fmt::print("  default scenario: ");
  std::fflush(stdout);
  return check_scenario(scenario_file, o.file, overlays, false);
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckSpec>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Validate a rig config file (and overlays) without running anything");
  cmd->footer(
      "Examples:\n"
      "  hilsim check hil_rigs/bench/rig.pbtxt\n"
      "  hilsim check hil_rigs/bench/rig.pbtxt --overlay hil_rigs/bench/overlay_fast.pbtxt\n"
      "  hilsim check hil_rigs/ravon/rig.pbtxt --print   # the resolved rig and its channels\n"
      "  hilsim check hil_rigs/hmmwv/rig.pbtxt --scenario hill_start\n"
      "\n"
      "Overlays apply in order: the fields an overlay sets replace the base's, the rest stay.\n"
      "Every error is printed to stderr, one per line, as FILE:LINE:COLUMN: FIELD: PROBLEM:\n"
      "  rig.pbtxt:3:14: executive.period_us: 20 is out of range; expected 50..100000 "
      "(microseconds)\n"
      "A scenario (config/scenario/scenario.proto) is checked on a rig: hilsim check RIG "
      "--scenario "
      "FILE,\n"
      "or hilsim check SCENARIO [--rig NAME] (a FILE that is a scenario is recognised).\n"
      "Exit status: 0 when valid (a summary of the effective settings is printed), 1 otherwise.\n"
      "Fields, units and valid ranges: config/*.proto; overlays and errors: docs/config.md.\n");
  cmd->add_option("file", options->file, "Rig config in Protobuf text format (rig.pbtxt)")
      ->required()
      ->type_name("FILE");
  cmd->add_option("--overlay", options->overlays,
                  "Overlay applied on top, in order; repeat for several")
      ->type_name("FILE")
      ->allow_extra_args(false);  // one file per --overlay: the base FILE is never taken
  cmd->add_option("--scenario", options->scenario,
                  "Check this scenario (a name in hil_rigs/scenarios/ or a file) on the rig FILE")
      ->type_name("SCENARIO");
  cmd->add_option("--rig", options->rig,
                  "When FILE is a scenario: the rig to check it on (default ravon)")
      ->type_name("NAME");
  cmd->add_flag(
      "--print", options->print,
      "Print the resolved rig (overlays and a --scenario's rig block applied) and its channels");
  cmd->callback([options] {
    const int code = run_check(*options);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace hil::cli
