#pragma once
// Dotted field paths ("executive.catch_up.max_ticks", "buses[1].name") resolved through
// protobuf reflection, so that rules, errors and source locations name fields the way a
// user writes them.

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace hil::config {

struct PathStep {
  const google::protobuf::FieldDescriptor* field = nullptr;
  int index = -1;  ///< element of a repeated field; -1 for a singular field
};

/// The steps of `path` below `root`; nullopt when a name is unknown, an index is missing or
/// malformed, or a step other than the last is not a message. Thread-safe.
[[nodiscard]] std::optional<std::vector<PathStep>> resolve_field_path(
    const google::protobuf::Descriptor& root, std::string_view path);

/// The descriptor of the last field of `path`, ignoring indices; nullptr if unknown.
/// Thread-safe.
[[nodiscard]] const google::protobuf::FieldDescriptor* find_field(
    const google::protobuf::Descriptor& root, std::string_view path);

/// The value of the integer field at `path` when it is set (uint64 values above the int64
/// range read as INT64_MAX); nullopt when unset or not an integer field. Thread-safe.
[[nodiscard]] std::optional<std::int64_t> integer_at(const google::protobuf::Message& root,
                                                     std::string_view path);

}  // namespace hil::config
