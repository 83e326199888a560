#include "config/text/source_map.hpp"

#include <google/protobuf/text_format.h>

#include <utility>

#include "config/text/field_path.hpp"
#include "config/text/text_layer.hpp"

namespace hil::config {

SourceMap::SourceMap(std::vector<const ParsedLayer*> layers) {
  for (const ParsedLayer* layer : layers) layers_.push_back({.layer = layer, .prefix = {}});
}

SourceMap::SourceMap(std::vector<SourceLayer> layers) : layers_(std::move(layers)) {}

bool SourceMap::find_written(std::string_view field, SourceLocation& out) const {
  for (std::size_t i = layers_.size(); i-- > 0;) {  // the last overlay first
    const ParsedLayer* layer = layers_[i].layer;
    const std::string& prefix = layers_[i].prefix;
    const std::string path =
        prefix.empty() ? std::string(field) : prefix + "." + std::string(field);
    const auto steps = resolve_field_path(*layer->message().GetDescriptor(), path);
    if (!steps) return false;
    const google::protobuf::TextFormat::ParseInfoTree* tree = &layer->locations();
    for (std::size_t step = 0; tree != nullptr && step + 1 < steps->size(); ++step) {
      tree = tree->GetTreeForNested((*steps)[step].field, (*steps)[step].index);
    }
    if (tree == nullptr) continue;
    const auto where = tree->GetLocation(steps->back().field, steps->back().index);
    if (where.line < 0) continue;
    out = SourceLocation{layer->name(), layer->text().value_of_field_at(where.line, where.column),
                         prefix};
    return true;
  }
  return false;
}

SourceLocation SourceMap::locate(std::string_view field) const {
  SourceLocation found;
  for (std::string_view path = field; !path.empty();) {
    if (find_written(path, found)) return found;
    const std::size_t dot = path.rfind('.');
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(0, dot);
  }
  if (!layers_.empty()) {
    found.file = layers_.front().layer->name();
    found.prefix = layers_.front().prefix;
  }
  return found;
}

ConfigError SourceMap::error(std::string_view field, std::string message) const {
  SourceLocation where = locate(field);
  return ConfigError{
      .file = std::move(where.file),
      .line = where.position.line,
      .column = where.position.column,
      .field = where.prefix.empty() ? std::string(field) : where.prefix + "." + std::string(field),
      .message = std::move(message)};
}

}  // namespace hil::config
