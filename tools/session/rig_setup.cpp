#include "tools/session/rig_setup.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "config/rig_locator.hpp"
#include "tools/session/config_errors.hpp"

namespace hil::session {

namespace {

/// The scenario to drive: --scenario, else the rig's default_scenario ("none": none).
std::optional<std::filesystem::path> scenario_file(const RigSelection& s,
                                                   const config::RigSettings& rig,
                                                   const std::filesystem::path& rig_file) {
  if (!s.scenario.empty()) {
    return s.scenario == "none" ? std::nullopt : std::optional(config::locate_scenario(s.scenario));
  }
  const std::string& name = rig.default_scenario;
  if (name.empty() || name == "none") return std::nullopt;
  return config::locate_scenario(name, rig_file);  // a path in the rig file is relative to it
}

}  // namespace

std::vector<config::FaultSettings> run_faults(
    const config::RigSettings& rig, const std::optional<config::ScenarioSettings>& scenario) {
  std::vector<config::FaultSettings> out = rig.faults;
  if (scenario) out.insert(out.end(), scenario->faults.begin(), scenario->faults.end());
  return out;
}

std::uint64_t run_seed(const config::RigSettings& rig) noexcept {
  return rig.vehicle ? rig.vehicle->seed : 1;
}

runtime::FaultTargets fault_targets(runtime::Rig& rig) {
  return {.table = rig.table(),
          .buses = rig.buses(),
          .bus_specs = rig.settings().can,
          .period = rig.settings().executive.period};
}

std::unique_ptr<RigSetup> set_up_rig(const RigSelection& s) {
  auto setup = std::make_unique<RigSetup>();
  setup->rig = config::rig_name(s.rig);
  setup->rig_file = config::locate_rig(s.rig);
  const std::vector<std::filesystem::path> overlays(s.overlays.begin(), s.overlays.end());
  config::LoadResult loaded = config::load_rig_config(setup->rig_file, overlays);
  if (!loaded.ok()) {
    print_config_errors(loaded.errors, setup->rig_file.string());
    return nullptr;
  }
  setup->settings = std::move(*loaded.settings);
  print_config_warnings(setup->settings);
  // The scenario: its rig block applied over the rig, its ECU, events and gates
  setup->scenario_file = scenario_file(s, setup->settings, setup->rig_file);
  if (setup->scenario_file) {
    config::ScenarioLoadResult sc =
        config::load_scenario(*setup->scenario_file, setup->rig_file, overlays);
    config::require_rig(sc, setup->rig);
    if (!sc.ok()) {
      print_config_errors(sc.errors, setup->scenario_file->string());
      return nullptr;
    }
    setup->settings = std::move(*sc.rig);
    setup->scenario = std::move(*sc.scenario);
  }
  if (s.can_uri && setup->settings.can.empty()) {
    throw std::runtime_error(fmt::format("--can {}: the rig {} has no CAN bus to connect it to",
                                         *s.can_uri, setup->rig_file.string()));
  }
  // The built-in ECU drives a vehicle over the rig's first bus, along a scenario
  const bool wants_virtual =
      !s.can_uri && s.ecu == "virtual" && setup->settings.vehicle && !setup->settings.can.empty();
  const bool virtual_ecu = wants_virtual && setup->scenario.has_value();
  const bool no_scenario_wanted =
      s.scenario == "none" || (s.scenario.empty() && setup->settings.default_scenario == "none");
  if (wants_virtual && !setup->scenario && !no_scenario_wanted) {
    spdlog::warn(
        "no scenario (--scenario NAME): the built-in ECU needs one to drive, so it is "
        "off and the vehicle stays in its safe state");
  }
  setup->ecu = s.can_uri ? *s.can_uri : virtual_ecu ? "virtual (in process)" : "none";

  std::vector<config::FaultSettings> faults = run_faults(setup->settings, setup->scenario);
  setup->runtime = std::make_unique<runtime::Rig>(
      setup->settings,
      runtime::RigOptions{.can_uri = s.can_uri,
                          .extra_input_channels = setup->scenario ? setup->scenario->marker_channels
                                                                  : std::vector<std::string>{},
                          .extra_output_channels = runtime::FaultEngine::channels(faults),
                          .bus_name = setup->rig});
  if (setup->scenario) {
    setup->scenario_run = std::make_unique<session::ScenarioRun>(
        *setup->runtime, *setup->scenario, session::ScenarioRunOptions{.virtual_ecu = virtual_ecu});
    setup->scenario_run->add_stages(setup->plan);
  } else {
    setup->runtime->add_stages(setup->plan);
  }
  setup->faults = std::make_unique<runtime::FaultEngine>(
      std::move(faults), fault_targets(*setup->runtime), run_seed(setup->settings));
  setup->faults->add_stages(setup->plan, /*always=*/true);  // commands may add faults
  return setup;
}

}  // namespace hil::session
