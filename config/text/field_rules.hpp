#pragma once
// Declarative checks of single fields, and the words that tell a user what a field expects.
// Each schema lists its ranges once (see executive_rules.hpp); validation and the messages
// of parse errors both use them.

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"

namespace hil::config {

/// A singular integer field and its valid values.
struct IntegerRange {
  std::string field;  ///< dotted path from the root message: "executive.period_us"
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::string note;  ///< unit or meaning, shown in parentheses: "microseconds"
};

/// "expected 50..100000 (microseconds)". Thread-safe.
[[nodiscard]] std::string describe_expected(const IntegerRange& range);

/// What a value of `field` looks like, for a parse error: its range if it has one, else its
/// type ("expected true or false"). Thread-safe.
[[nodiscard]] std::string describe_expected(const google::protobuf::FieldDescriptor& field,
                                            std::span<const IntegerRange> ranges,
                                            std::string_view path);

/// The range of `field`, or nullptr. Thread-safe.
[[nodiscard]] const IntegerRange* find_range(std::span<const IntegerRange> ranges,
                                             std::string_view field);

/// One error per field that is set and outside its range: "20 is out of range; expected
/// 50..100000 (microseconds)". Fields left out (taking their default) are not checked.
[[nodiscard]] ConfigErrors check_ranges(const google::protobuf::Message& root,
                                        std::span<const IntegerRange> ranges,
                                        const SourceMap& sources);

}  // namespace hil::config
