#include "config/scenario_settings.hpp"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <iterator>
#include <utility>

#include "config/scenario.pb.h"
#include "config/scenario_convert.hpp"
#include "config/source_map.hpp"
#include "config/text_file.hpp"
#include "config/text_structure.hpp"
#include "config/validate.hpp"

namespace hil::config {

namespace {

constexpr std::string_view kRigBlock = "rig";

/// The rig's integer ranges, as fields of the scenario's `rig` block.
std::vector<IntegerRange> scenario_ranges(const Machine& machine) {
  std::vector<IntegerRange> ranges = rig_ranges(machine);
  for (IntegerRange& range : ranges) range.field = std::string(kRigBlock) + "." + range.field;
  return ranges;
}

void append(ConfigErrors& to, ConfigErrors&& more) {
  to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

}  // namespace

ScenarioLoadResult load_scenario_text(ConfigText scenario, const std::filesystem::path& rig,
                                      std::span<const std::filesystem::path> rig_overlays,
                                      const Machine& machine) {
  ScenarioLoadResult result;
  const std::string name = std::filesystem::path(scenario.name).stem().string();
  const std::string file = scenario.name;
  ConfigErrors parse_errors;
  const ParsedLayer layer = parse_layer(std::move(scenario), Scenario::default_instance(),
                                        scenario_ranges(machine), parse_errors);
  const auto& message = static_cast<const Scenario&>(layer.message());

  // The rig with the scenario's rig block on top; its errors may point into either file
  const EmbeddedRigLayer embedded{.config = &message.rig(),
                                  .source = {.layer = &layer, .prefix = std::string(kRigBlock)}};
  LoadResult rig_result =
      load_rig_config(rig, rig_overlays, std::span<const EmbeddedRigLayer>(&embedded, 1), machine);
  result.errors = std::move(parse_errors);
  append(result.errors, std::move(rig_result.errors));
  if (!rig_result.ok()) return result;

  ScenarioSettings settings;
  settings.name = name;
  settings.file = file;
  ConfigErrors invalid;
  convert_scenario(message, *rig_result.settings,
                   SourceMap(std::vector<const ParsedLayer*>{&layer}), settings, invalid);
  append(result.errors, std::move(invalid));
  if (!result.errors.empty()) return result;
  result.scenario = std::move(settings);
  result.rig = std::move(rig_result.settings);
  return result;
}

ScenarioLoadResult load_scenario(const std::filesystem::path& scenario,
                                 const std::filesystem::path& rig,
                                 std::span<const std::filesystem::path> rig_overlays,
                                 const Machine& machine) {
  FileText file = read_text_file(scenario, kMaxConfigBytes);
  if (!file.error.empty()) {
    ScenarioLoadResult result;
    result.errors.push_back(
        ConfigError{.file = scenario.string(), .message = std::move(file.error)});
    return result;
  }
  return load_scenario_text(ConfigText{scenario.string(), std::move(file.text)}, rig, rig_overlays,
                            machine);
}

bool looks_like_scenario(std::string_view text) {
  namespace pb = google::protobuf;
  // Silent parse: a rig file's blocks are unknown fields of a Scenario and are skipped
  class Quiet final : public pb::io::ErrorCollector {
    void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
    void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}
  } quiet;
  if (text.size() > kMaxConfigBytes || find_nesting_deeper_than(text, kMaxConfigNesting)) {
    return false;
  }
  Scenario s;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&quiet);
  parser.AllowUnknownField(true);
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  (void)parser.Parse(&input, &s);
  return s.has_duration_s() || s.has_drive() || s.gates_size() > 0 || s.events_size() > 0 ||
         s.has_start();
}

}  // namespace hil::config
