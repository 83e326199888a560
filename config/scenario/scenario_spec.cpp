#include "config/scenario/scenario_spec.hpp"

#include "config/rig/rig_layers.hpp"
#include "config/text/text_layer.hpp"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "config/rig/validate.hpp"
#include "config/scenario/scenario.pb.h"
#include "config/scenario/scenario_convert.hpp"
#include "config/text/source_map.hpp"
#include "config/text/text_file.hpp"
#include "config/text/text_structure.hpp"

namespace hil::config {

namespace {

constexpr std::string_view kRigBlock = "rig";

/// The rig's integer ranges, as fields of the scenario's `rig` block.
std::vector<config::IntegerRange> scenario_ranges(const config::Machine& machine) {
  std::vector<config::IntegerRange> ranges = config::rig_ranges(machine);
  for (config::IntegerRange& range : ranges)
    range.field = std::string(kRigBlock) + "." + range.field;
  return ranges;
}

void append(config::ConfigErrors& to, config::ConfigErrors&& more) {
  to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

}  // namespace

ScenarioLoadResult load_scenario_text(config::ConfigText scenario, const std::filesystem::path& rig,
                                      std::span<const std::filesystem::path> rig_overlays,
                                      const config::Machine& machine) {
  ScenarioLoadResult result;
  const std::string name = std::filesystem::path(scenario.name).stem().string();
  const std::string file = scenario.name;
  config::ConfigErrors parse_errors;
  const config::ParsedLayer layer = parse_layer(std::move(scenario), Scenario::default_instance(),
                                                scenario_ranges(machine), parse_errors);
  const auto& message = static_cast<const Scenario&>(layer.message());

  // The rig with the scenario's rig block on top; its errors may point into either file
  const config::EmbeddedRigLayer embedded{
      .config = &message.rig(), .source = {.layer = &layer, .prefix = std::string(kRigBlock)}};
  config::LoadResult rig_result = load_rig_config(
      rig, rig_overlays, std::span<const config::EmbeddedRigLayer>(&embedded, 1), machine);
  result.errors = std::move(parse_errors);
  append(result.errors, std::move(rig_result.errors));
  if (!rig_result.ok()) return result;

  ScenarioSpec settings;
  settings.name = name;
  settings.file = file;
  config::ConfigErrors invalid;
  convert_scenario(message, *rig_result.settings,
                   config::SourceMap(std::vector<const config::ParsedLayer*>{&layer}), settings,
                   invalid);
  append(result.errors, std::move(invalid));
  result.rigs = settings.rigs;
  result.rigs_error = settings.rigs_error;
  if (!result.errors.empty()) return result;
  result.scenario = std::move(settings);
  result.rig = std::move(rig_result.settings);
  return result;
}

void require_rig(ScenarioLoadResult& result, std::string_view rig) {
  if (result.rigs.empty() || std::ranges::find(result.rigs, rig) != result.rigs.end()) return;
  config::ConfigError e = result.rigs_error;
  e.message += fmt::format("; not for the rig {}", rig);
  result.errors = {std::move(e)};  // what else it found came of a rig it is not for
  result.scenario.reset();
}

ScenarioLoadResult load_scenario(const std::filesystem::path& scenario,
                                 const std::filesystem::path& rig,
                                 std::span<const std::filesystem::path> rig_overlays,
                                 const config::Machine& machine) {
  config::FileText file = config::read_text_file(scenario, config::kMaxConfigBytes);
  if (!file.error.empty()) {
    ScenarioLoadResult result;
    result.errors.push_back(
        config::ConfigError{.file = scenario.string(), .message = std::move(file.error)});
    return result;
  }
  return load_scenario_text(config::ConfigText{scenario.string(), std::move(file.text)}, rig,
                            rig_overlays, machine);
}

bool looks_like_scenario(std::string_view text) {
  namespace pb = google::protobuf;
  // Silent parse: a rig file's blocks are unknown fields of a Scenario and are skipped
  class Quiet final : public pb::io::ErrorCollector {
    void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
    void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}
  } quiet;
  if (text.size() > config::kMaxConfigBytes ||
      config::find_nesting_deeper_than(text, config::kMaxConfigNesting)) {
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
