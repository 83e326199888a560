#pragma once
// Where the final value of each field was written: the last layer (overlay, else the base
// file) that set it. Validation errors point there.

#include <string>
#include <string_view>
#include <vector>

#include "config/config_error.hpp"
#include "config/text_index.hpp"

namespace hil::config {

class ParsedLayer;

struct SourceLocation {
  std::string file;       ///< empty when there are no files
  TextPosition position;  ///< {0, 0} when no layer wrote the field or one of its parents
};

/// Immutable; const methods are thread-safe. Does not own the layers.
class SourceMap {
 public:
  /// No files: every location is unknown (for validating a message built in code).
  SourceMap() = default;
  /// `layers`: the base file first, then the overlays in the order they were applied.
  /// They must outlive the map.
  explicit SourceMap(std::vector<const ParsedLayer*> layers);

  /// Where the final value of `field` (a dotted path) was written: the value of a scalar,
  /// the name of a block. When no layer wrote it, where its closest enclosing block was
  /// written; when none was, the base file with an unknown line.
  [[nodiscard]] SourceLocation locate(std::string_view field) const;

  /// An error about `field` located at locate(field).
  [[nodiscard]] ConfigError error(std::string_view field, std::string message) const;

 private:
  [[nodiscard]] bool find_written(std::string_view field, SourceLocation& out) const;

  std::vector<const ParsedLayer*> layers_;
};

}  // namespace hil::config
