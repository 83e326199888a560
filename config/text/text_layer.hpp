#pragma once
// One config file (the base or an overlay) parsed from Protobuf text format, remembering
// where each field was written. Parse errors become ConfigErrors naming file:line:column,
// the field and what was expected.

#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "config/text/config_error.hpp"
#include "config/text/config_text.hpp"
#include "config/text/field_rules.hpp"
#include "config/text/text_index.hpp"

namespace hil::config {

/// Movable, not copyable. Const methods are thread-safe.
class ParsedLayer {
 public:
  ParsedLayer(std::string name, TextIndex text, std::unique_ptr<google::protobuf::Message> message,
              std::unique_ptr<google::protobuf::TextFormat::ParseInfoTree> locations);

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const TextIndex& text() const noexcept { return text_; }
  /// Everything that parsed; after a parse error, the fields before it.
  [[nodiscard]] const google::protobuf::Message& message() const noexcept { return *message_; }
  [[nodiscard]] const google::protobuf::TextFormat::ParseInfoTree& locations() const noexcept {
    return *locations_;
  }

 private:
  std::string name_;
  TextIndex text_;
  std::unique_ptr<google::protobuf::Message> message_;
  std::unique_ptr<google::protobuf::TextFormat::ParseInfoTree> locations_;
};

/// Parses `source` as a message of the type of `prototype`. Appends every problem to
/// `errors`: syntax and type errors, each unknown field (with a "did you mean" suggestion),
/// fields given twice. `ranges` word what a value should be. Never throws for bad input.
/// Setup phase (allocates); thread-safe.
[[nodiscard]] ParsedLayer parse_layer(ConfigText source, const google::protobuf::Message& prototype,
                                      std::span<const IntegerRange> ranges, ConfigErrors& errors);

}  // namespace hil::config
