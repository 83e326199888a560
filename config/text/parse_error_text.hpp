#pragma once
// Rewords the messages of protobuf's text-format parser for the people who write rig files:
// names the unknown field and suggests the closest known one, says what value was expected.

#include <google/protobuf/message.h>

#include <span>
#include <string>
#include <string_view>

#include "config/text/field_rules.hpp"

namespace hil::config {

struct ExplainedParseError {
  std::string message;
  bool about_field_name = false;  ///< points at the field's name, not at the value
};

/// True for the parser's messages that it reports at the token after the bad value
/// ("Invalid value for boolean field ..."): they belong to the field just read.
[[nodiscard]] bool is_reported_after_value(std::string_view protobuf_message) noexcept;

/// `protobuf_message` was reported while reading `field_path` (from fields_at(); may be
/// empty or contain "?") of a message of the type of `root`. Thread-safe.
[[nodiscard]] ExplainedParseError explain_parse_error(std::string_view protobuf_message,
                                                      std::string_view field_path,
                                                      const google::protobuf::Message& root,
                                                      std::span<const IntegerRange> ranges);

}  // namespace hil::config
