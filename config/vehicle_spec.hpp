#pragma once
// From the `vehicle` block (config/vehicle.proto) to the model's parameters: the preset,
// then every field the file sets. Validation reuses the model's own checks
// (models::check), whose field paths are the schema's, so each problem points at the line
// that set the value. Setup phase; thread-safe.

#include <string_view>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "config/vehicle.pb.h"
#include "models/vehicle/vehicle_params.hpp"

namespace hil::config {

/// Names of the built-in presets, for messages: "ravon, hmmwv".
[[nodiscard]] std::string_view vehicle_preset_names() noexcept;

/// The parameters of `vehicle` with the executive's period `dt` [s]. An unknown preset
/// falls back to "ravon" (check_vehicle reports it).
[[nodiscard]] models::VehicleParams to_vehicle_params(const Vehicle& vehicle, double dt);

/// Every problem of the block at `prefix` ("vehicle"): an unknown preset, too many axles,
/// and each parameter out of range (models::check), located through `sources`.
[[nodiscard]] ConfigErrors check_vehicle(const Vehicle& vehicle, double dt, std::string_view prefix,
                                         const SourceMap& sources);

}  // namespace hil::config
