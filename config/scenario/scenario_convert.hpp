#pragma once
// From a parsed scenario (config/scenario/scenario.proto) and its loaded rig to ScenarioSpec:
// every value checked, each problem located through the scenario file's SourceMap. Used by
// load_scenario (config/scenario/scenario_spec.hpp); setup phase; thread-safe.

#include "config/rig/loader.hpp"
#include "config/scenario/scenario.pb.h"
#include "config/scenario/scenario_spec.hpp"
#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"

namespace hil::config {

/// Appends every problem to `errors`; `out` is complete only when none was added.
void convert_scenario(const Scenario& scenario, const config::RigSpec& rig,
                      const config::SourceMap& sources, ScenarioSpec& out,
                      config::ConfigErrors& errors);

/// The lane gates' outline of a vehicle (contact patches' outer edges) [m].
[[nodiscard]] Footprint footprint_of(const models::VehicleParams& vehicle) noexcept;

/// The widest axle's track plus its tire width: ISO 3888-1's vehicle width b [m].
[[nodiscard]] double vehicle_width_of(const models::VehicleParams& vehicle) noexcept;

}  // namespace hil::config
