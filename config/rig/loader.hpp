#pragma once
// Loads a rig configuration: the base file (hil_rigs/<rig>/rig.pbtxt), then each overlay in
// order, then validation. Every problem comes back as a ConfigError naming file:line:column,
// the field and what was expected. Setup phase: allocates; never throws for bad input.

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "config/fault_spec.hpp"
#include "config/fmu_spec.hpp"
#include "config/lidar_spec.hpp"
#include "config/radar_spec.hpp"
#include "config/recording_spec.hpp"
#include "config/rig/host_facts.hpp"
#include "config/text/config_error.hpp"
#include "config/text/config_text.hpp"
#include "io/bus/bus_spec.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "io/input/driver_mapping.hpp"
#include "models/terrain/terrain.hpp"
#include "models/vehicle/vehicle_params.hpp"
#include "rt_core/executive_spec.hpp"
#include "rt_core/rt_spec.hpp"

namespace hil::config {

struct RigDocument;  // config/rig/rig_document.hpp

/// A valid configuration, ready for runtime/.
struct RigSpec {
  rt::ExecutiveSpec executive;
  rt::RtSpec rt;
  /// The vehicle when the rig has one (dt = the executive's period).
  std::optional<models::VehicleParams> vehicle;
  /// The ground when the rig has a vehicle or a terrain block; shared by the run's vehicles.
  std::shared_ptr<const models::Terrain> terrain;
  /// The CAN buses, DBCs loaded, every name checked (io/can/mapping/can_bus_spec.hpp).
  std::vector<io::can::CanBusSpec> can;
  /// The shared-memory bus, when the rig has one (io/bus/bus_spec.hpp); its name "" = the
  /// rig's name.
  std::optional<io::bus::BusSpec> bus;
  /// The rig's faults, every name checked (config/fault_spec.hpp); a scenario adds its own.
  std::vector<FaultSpec> faults;
  /// What runs record (config/recording.proto).
  RecordingSpec recording;
  /// The FMUs co-simulated in the loop, every name checked (config/fmu_spec.hpp).
  std::vector<FmuSpec> fmus;
  /// The built-in ECU's diagnostics, when the rig has a diagnostics block
  /// (config/diagnostics_spec.hpp).
  std::optional<DiagnosticsSpec> diagnostics;
  /// A driver in the loop, when the rig has a driver block (config/driver_spec.hpp): the rig
  /// then has the driver channels (io/input/driver_channels.hpp).
  std::optional<io::input::DriverSpec> driver;
  /// The lidars of the range_sensors block (config/lidar_spec.hpp), the rig file's order.
  std::vector<LidarSpec> lidars;
  /// The radars of the range_sensors block (config/radar_spec.hpp), the rig file's order; each
  /// sends on one of `can`.
  std::vector<RadarSpec> radars;
  /// The scenario a run drives when none is named ("" none given; "none": none).
  std::string default_scenario;
  /// The file as loaded (overlays applied, defaults not filled in, file paths made absolute):
  /// what config/rig/rig_document.hpp prints and writes into a run directory.
  std::shared_ptr<const RigDocument> document;
  std::vector<std::string> sources;  ///< the files, base first, as the caller named them
};

/// Either settings or the reasons there are none.
struct LoadResult {
  std::optional<RigSpec> settings;  ///< present exactly when `errors` is empty
  ConfigErrors errors;              ///< parse errors file by file, then validation errors

  [[nodiscard]] bool ok() const noexcept { return settings.has_value(); }
};

/// Reads `base` and `overlays`, applies the overlays in order (see apply_overlay) and
/// validates the result against `machine`. A file that cannot be read is an error naming it
/// and the OS reason. Thread-safe.
[[nodiscard]] LoadResult load_rig_config(const std::filesystem::path& base,
                                         std::span<const std::filesystem::path> overlays = {},
                                         const Machine& machine = this_machine());

/// The same for texts already in memory, base first (each named as errors should call it).
/// Thread-safe.
[[nodiscard]] LoadResult load_rig_config_text(std::span<const ConfigText> layers,
                                              const Machine& machine = this_machine());

}  // namespace hil::config
