#pragma once
// Where the final value of each field was written: the last layer (overlay, else the base
// file) that set it. Validation errors point there.

#include <string>
#include <string_view>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/text_index.hpp"

namespace hil::config {

class ParsedLayer;

struct SourceLocation {
  std::string file;       ///< empty when there are no files
  TextPosition position;  ///< {0, 0} when no layer wrote the field or one of its parents
  std::string prefix;     ///< the layer's SourceLayer::prefix ("" for a whole-file layer)
};

/// A layer and where the configuration sits in its message: "" when the file is the
/// configuration (rig.pbtxt, an overlay), else the path of the block that holds it ("rig"
/// in a scenario file, config/scenario/scenario.proto).
struct SourceLayer {
  const ParsedLayer* layer = nullptr;
  std::string prefix;
};

/// Immutable; const methods are thread-safe. Does not own the layers.
class SourceMap {
 public:
  /// No files: every location is unknown (for validating a message built in code).
  SourceMap() = default;
  /// `layers`: the base file first, then the overlays in the order they were applied.
  /// They must outlive the map.
  explicit SourceMap(std::vector<const ParsedLayer*> layers);
  /// The same for layers that hold the configuration in a block (see SourceLayer).
  explicit SourceMap(std::vector<SourceLayer> layers);

  /// Where the final value of `field` (a dotted path) was written: the value of a scalar,
  /// the name of a block. When no layer wrote it, where its closest enclosing block was
  /// written; when none was, the base file with an unknown line.
  [[nodiscard]] SourceLocation locate(std::string_view field) const;

  /// An error about `field` located at locate(field); when the layer that wrote it holds
  /// the configuration in a block, the field is named from that file's root
  /// ("rig.terrain.patches[0].x_min").
  [[nodiscard]] ConfigError error(std::string_view field, std::string message) const;

 private:
  [[nodiscard]] bool find_written(std::string_view field, SourceLocation& out) const;

  std::vector<SourceLayer> layers_;
};

}  // namespace hil::config
