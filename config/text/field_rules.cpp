#include "config/text/field_rules.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "config/text/field_path.hpp"

namespace hil::config {

namespace {

using google::protobuf::FieldDescriptor;

[[nodiscard]] std::string describe_type(const FieldDescriptor& field) {
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL:
      return "expected true or false";
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_INT64:
      return "expected an integer";
    case FieldDescriptor::CPPTYPE_UINT32:
    case FieldDescriptor::CPPTYPE_UINT64:
      return "expected an integer >= 0";
    case FieldDescriptor::CPPTYPE_FLOAT:
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return "expected a number";
    case FieldDescriptor::CPPTYPE_STRING:
      return "expected a quoted string";
    case FieldDescriptor::CPPTYPE_ENUM: {
      std::string names;
      for (int i = 0; i < field.enum_type()->value_count(); ++i) {
        names += (i == 0 ? "" : ", ") + field.enum_type()->value(i)->name();
      }
      return "expected one of " + names;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return fmt::format("expected a block: {} {{ ... }}", field.name());
  }
  return "expected a valid value";
}

}  // namespace

std::string describe_expected(const IntegerRange& range) {
  return fmt::format("expected {}..{} ({})", range.min, range.max, range.note);
}

std::string describe_expected(const FieldDescriptor& field, std::span<const IntegerRange> ranges,
                              std::string_view path) {
  const IntegerRange* range = find_range(ranges, path);
  return range != nullptr ? describe_expected(*range) : describe_type(field);
}

const IntegerRange* find_range(std::span<const IntegerRange> ranges, std::string_view field) {
  const auto found = std::find_if(ranges.begin(), ranges.end(),
                                  [&](const IntegerRange& range) { return range.field == field; });
  return found == ranges.end() ? nullptr : &*found;
}

ConfigErrors check_ranges(const google::protobuf::Message& root,
                          std::span<const IntegerRange> ranges, const SourceMap& sources) {
  ConfigErrors errors;
  for (const IntegerRange& range : ranges) {
    const std::optional<std::int64_t> value = integer_at(root, range.field);
    if (!value || (*value >= range.min && *value <= range.max)) continue;
    errors.push_back(sources.error(
        range.field, fmt::format("{} is out of range; {}", *value, describe_expected(range))));
  }
  return errors;
}

}  // namespace hil::config
