#include "config/rig/loader.hpp"

#include "config/rig/rig_layers.hpp"

#include <iterator>
#include <utility>

#include "config/bus_spec.hpp"
#include "config/can_spec.hpp"
#include "config/driver_spec.hpp"
#include "config/executive_spec.hpp"
#include "config/fault_spec.hpp"
#include "config/lidar_spec.hpp"
#include "config/radar_spec.hpp"
#include "config/rig/overlay.hpp"
#include "config/rig/validate.hpp"
#include "config/terrain/terrain_spec.hpp"
#include "config/text/source_map.hpp"
#include "config/text/text_file.hpp"
#include "config/text/text_layer.hpp"
#include "config/vehicle_spec.hpp"
#include "io/input/driver_channels.hpp"

namespace hil::config {

/// The merged file kept with its settings (config/rig/rig_document.cpp).
std::shared_ptr<const RigDocument> keep_document(RigConfig merged);

namespace {

/// One layer to merge: the RigConfig it sets and where it was written.
struct RigLayerRef {
  const google::protobuf::Message* config = nullptr;
  SourceLayer source;
};

/// Merges the layers in order, validates the result (even after parse errors: the values
/// that did parse can still be wrong) and converts it when everything is fine.
[[nodiscard]] LoadResult validate_layers(const std::vector<RigLayerRef>& layers,
                                         ConfigErrors errors, const Machine& machine) {
  RigConfig merged;
  std::vector<SourceLayer> sources;
  for (const RigLayerRef& layer : layers) {
    apply_overlay(*layer.config, merged);
    sources.push_back(layer.source);
  }
  const SourceMap source_map(std::move(sources));
  ConfigErrors invalid = validate(merged, source_map, machine);
  std::vector<LidarSpec> lidars;  // the range sensors' lidars (config/lidar_spec.hpp)
  ConfigErrors lidar_errors = check_lidars(merged.range_sensors(), merged.has_vehicle(),
                                           "range_sensors", source_map, lidars);
  invalid.insert(invalid.end(), lidar_errors.begin(), lidar_errors.end());
  // The terrain is checked by building it: DEM files are read and parsed here. A rig
  // without a vehicle (the timing bench) has no use for one.
  TerrainBuild terrain;
  if (merged.has_vehicle() || merged.has_terrain()) {
    terrain = build_terrain(merged.terrain(), "terrain", source_map);
  }
  // The CAN mapping is checked against the rig's channels, which need a valid vehicle
  std::vector<io::can::CanBusSpec> can;
  std::optional<io::bus::BusSpec> bus;
  std::vector<FaultSpec> faults;
  std::vector<FmuSpec> fmus;
  std::optional<DiagnosticsSpec> diagnostics;
  std::optional<io::input::DriverSpec> driver;
  std::vector<RadarSpec> radars;  // each on one of `can` (config/radar_spec.hpp)
  RecordingSpec recording;
  ConfigErrors can_errors;
  std::optional<models::VehicleParams> vehicle;  // converted once, here
  if (invalid.empty()) {
    const double period_s = static_cast<double>(to_executive_config(merged.executive()).period) /
                            static_cast<double>(rt::kSecond);
    if (merged.has_vehicle()) vehicle = to_vehicle_params(merged.vehicle(), period_s);
    rt::ChannelTable channels;  // the rig's, to resolve the mappings' names against
    (void)add_rig_channels(channels, vehicle);
    if (merged.has_driver()) io::input::add_driver_channels(channels);
    can_errors = check_can(merged.can(), channels, period_s, "can", source_map, can);
    if (can_errors.empty()) {
      can_errors = check_bus(merged.bus(), channels, can, "bus", source_map, bus);
    }
    if (can_errors.empty()) {
      can_errors = check_faults(merged.faults(), channels, {}, can, "faults", source_map, faults);
    }
    if (can_errors.empty())
      can_errors = check_fmus(merged.fmus(), channels, "fmus", source_map, fmus);
    if (can_errors.empty()) {
      can_errors = check_diagnostics(merged.has_diagnostics(), merged.diagnostics(), can,
                                     "diagnostics", source_map, diagnostics);
    }
    if (can_errors.empty() && merged.has_driver()) {
      can_errors = check_driver(merged.driver(), channels, "driver", source_map, driver.emplace());
    }
    if (can_errors.empty()) {
      can_errors = check_radars(merged.range_sensors(), can, "range_sensors", source_map, radars);
    }
    ConfigErrors recording_errors =
        check_recording(merged.recording(), 1.0 / period_s, "recording", source_map, recording);
    can_errors.insert(can_errors.end(), std::make_move_iterator(recording_errors.begin()),
                      std::make_move_iterator(recording_errors.end()));
  }
  for (ConfigErrors* more : {&invalid, &terrain.errors, &can_errors}) {
    errors.insert(errors.end(), std::make_move_iterator(more->begin()),
                  std::make_move_iterator(more->end()));
  }
  if (!errors.empty()) return LoadResult{std::nullopt, std::move(errors)};

  RigSpec settings;
  settings.executive = to_executive_config(merged.executive());
  settings.rt = to_rt_options(merged.executive());
  settings.vehicle = std::move(vehicle);
  settings.terrain = std::move(terrain.terrain);
  settings.can = std::move(can);
  settings.bus = std::move(bus);
  settings.faults = std::move(faults);
  settings.fmus = std::move(fmus);
  settings.diagnostics = std::move(diagnostics);
  settings.driver = std::move(driver);
  settings.lidars = std::move(lidars);
  settings.radars = std::move(radars);
  settings.recording = std::move(recording);
  // The files the rig names, as resolved: the merged message no longer knows which file
  // each relative path was relative to (a run directory copies them from here)
  for (std::size_t i = 0; i < settings.can.size(); ++i) {
    merged.mutable_can()
        ->mutable_buses(static_cast<int>(i))
        ->set_dbc(settings.can[i].database.file_name);
  }
  for (std::size_t i = 0; i < settings.fmus.size(); ++i) {  // replayed from the run directory
    merged.mutable_fmus(static_cast<int>(i))->set_path(settings.fmus[i].path.string());
  }
  if (settings.bus && settings.bus->mirror) {
    merged.mutable_bus()->mutable_mirror()->set_key_file(settings.bus->mirror->key_file);
  }
  if (!terrain.dem_heights.empty()) {
    merged.mutable_terrain()->mutable_dem()->set_heights(terrain.dem_heights.string());
  }
  if (!terrain.dem_surfaces.empty()) {
    merged.mutable_terrain()->mutable_dem()->set_surfaces(terrain.dem_surfaces.string());
  }
  settings.default_scenario = merged.default_scenario();
  settings.document = keep_document(std::move(merged));
  for (const RigLayerRef& layer : layers) settings.sources.push_back(layer.source.layer->name());
  return LoadResult{std::move(settings), {}};
}

/// Files that are each a RigConfig.
[[nodiscard]] std::vector<RigLayerRef> whole_file_layers(const std::vector<ParsedLayer>& parsed) {
  std::vector<RigLayerRef> layers;
  layers.reserve(parsed.size());
  for (const ParsedLayer& layer : parsed) {
    layers.push_back({.config = &layer.message(), .source = {.layer = &layer, .prefix = {}}});
  }
  return layers;
}

}  // namespace

LoadResult load_rig_config_text(std::span<const ConfigText> layers, const Machine& machine) {
  const std::vector<IntegerRange> ranges = rig_ranges(machine);
  ConfigErrors errors;
  std::vector<ParsedLayer> parsed;
  for (const ConfigText& layer : layers) {
    parsed.push_back(parse_layer(layer, RigConfig::default_instance(), ranges, errors));
  }
  return validate_layers(whole_file_layers(parsed), std::move(errors), machine);
}

LoadResult load_rig_config(const std::filesystem::path& base,
                           std::span<const std::filesystem::path> overlays,
                           const Machine& machine) {
  return load_rig_config(base, overlays, {}, machine);
}

LoadResult load_rig_config(const std::filesystem::path& base,
                           std::span<const std::filesystem::path> overlays,
                           std::span<const EmbeddedRigLayer> embedded, const Machine& machine) {
  std::vector<std::filesystem::path> paths{base};
  paths.insert(paths.end(), overlays.begin(), overlays.end());

  const std::vector<IntegerRange> ranges = rig_ranges(machine);
  ConfigErrors errors;
  std::vector<ParsedLayer> parsed;
  bool all_read = true;
  for (const std::filesystem::path& path : paths) {
    FileText file = read_text_file(path, kMaxConfigBytes);
    if (!file.error.empty()) {
      errors.push_back(ConfigError{.file = path.string(), .message = std::move(file.error)});
      all_read = false;
      continue;
    }
    parsed.push_back(parse_layer(ConfigText{path.string(), std::move(file.text)},
                                 RigConfig::default_instance(), ranges, errors));
  }
  // Without every file the effective configuration is unknown: report what the readable
  // files say about themselves, not what their incomplete merge would look like.
  if (!all_read) return LoadResult{std::nullopt, std::move(errors)};
  std::vector<RigLayerRef> layers = whole_file_layers(parsed);
  for (const EmbeddedRigLayer& e : embedded) layers.push_back({e.config, e.source});
  return validate_layers(layers, std::move(errors), machine);
}

}  // namespace hil::config
