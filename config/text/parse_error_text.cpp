#include "config/text/parse_error_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "config/text/field_path.hpp"
#include "config/text/suggest.hpp"

namespace hil::config {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

/// The text between the n-th pair of double quotes (0-based), or "".
[[nodiscard]] std::string_view quoted(std::string_view text, int n) {
  std::size_t open = std::string_view::npos;
  for (int i = 0; i <= n; ++i) {
    open = text.find('"', open == std::string_view::npos ? 0 : open + 1);
    if (open == std::string_view::npos) return {};
    const std::size_t close = text.find('"', open + 1);
    if (close == std::string_view::npos) return {};
    if (i == n) return text.substr(open + 1, close - open - 1);
    open = close;
  }
  return {};
}

/// Protobuf's sentence as a clause of ours: "Expected integer, got: abc." → "expected ...".
[[nodiscard]] std::string as_clause(std::string_view message) {
  std::string out(message);
  if (out.ends_with('.')) out.pop_back();
  if (out.size() > 1 && out[0] >= 'A' && out[0] <= 'Z' && out[1] >= 'a' && out[1] <= 'z') {
    out[0] = static_cast<char>(out[0] - 'A' + 'a');
  }
  return out;
}

[[nodiscard]] std::string unknown_field(std::string_view message, const Descriptor& root) {
  const std::string_view type_name = quoted(message, 0);
  const std::string_view name = quoted(message, 1);
  const Descriptor* type = root.file()->pool()->FindMessageTypeByName(std::string(type_name));
  std::vector<std::string> known;
  for (int i = 0; type != nullptr && i < type->field_count(); ++i) {
    known.push_back(type->field(i)->name());
  }
  if (const auto suggestion = closest_name(name, known)) {
    return fmt::format(R"(unknown field "{}"; did you mean "{}"?)", name, *suggestion);
  }
  if (known.empty()) return fmt::format(R"(unknown field "{}")", name);
  return fmt::format(R"(unknown field "{}"; expected one of: {})", name, fmt::join(known, ", "));
}

[[nodiscard]] bool is_unsigned(const FieldDescriptor& field) {
  return field.cpp_type() == FieldDescriptor::CPPTYPE_UINT32 ||
         field.cpp_type() == FieldDescriptor::CPPTYPE_UINT64;
}

/// Messages about a value that does not fit its field, and how to word them.
[[nodiscard]] std::string explain_value(std::string_view message, const FieldDescriptor* field) {
  constexpr std::string_view kNotInteger = "Expected integer, got: ";
  constexpr std::string_view kOutOfRange = "Integer out of range (";
  constexpr std::string_view kEndOfFile = "got: ";  // protobuf's words for "got nothing"
  const bool scalar = field != nullptr && field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE;
  if (message.ends_with(kEndOfFile)) {
    return scalar ? "the value is missing at the end of the file"
                  : "the file ends inside this block; expected a closing }";
  }
  if (message.starts_with(kNotInteger)) {
    const std::string_view got = message.substr(kNotInteger.size());
    if (got == "-" && field != nullptr && is_unsigned(*field)) {
      return "negative values are not allowed";
    }
    return fmt::format("{} is not an integer", got);
  }
  if (message.starts_with(kOutOfRange) && message.ends_with(")")) {
    const std::string_view value = message.substr(kOutOfRange.size());
    return fmt::format("{} is out of range", value.substr(0, value.size() - 1));
  }
  return as_clause(message);
}

[[nodiscard]] bool is_about_value(std::string_view message) {
  constexpr std::array<std::string_view, 7> kValueErrors = {
      "Expected integer",          "Integer out of range", "Invalid value",
      "Unknown enumeration",       "Expected double",      "Expected string",
      "Expected identifier, got: "};
  return std::ranges::any_of(
      kValueErrors, [message](std::string_view prefix) { return message.starts_with(prefix); });
}

}  // namespace

bool is_reported_after_value(std::string_view protobuf_message) noexcept {
  return protobuf_message.starts_with("Invalid value for boolean field") ||
         protobuf_message.starts_with("Unknown enumeration value");
}

ExplainedParseError explain_parse_error(std::string_view protobuf_message,
                                        std::string_view field_path,
                                        const google::protobuf::Message& root,
                                        std::span<const IntegerRange> ranges) {
  const Descriptor& root_type = *root.GetDescriptor();
  if (protobuf_message.find("has no field named") != std::string_view::npos) {
    return {unknown_field(protobuf_message, root_type), true};
  }
  if (protobuf_message.find("is specified multiple times") != std::string_view::npos) {
    return {"set more than once in this file; it takes a single value", true};
  }
  if (protobuf_message.find("another member of oneof") != std::string_view::npos) {
    return {fmt::format("only one member of oneof \"{}\" can be set per file; \"{}\" is "
                        "already set",
                        quoted(protobuf_message, 2), quoted(protobuf_message, 1)),
            true};
  }
  const FieldDescriptor* field = find_field(root_type, field_path);
  std::string message = explain_value(protobuf_message, field);
  if (field != nullptr && field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE &&
      is_about_value(protobuf_message)) {
    message += "; " + describe_expected(*field, ranges, field_path);
  }
  return {std::move(message), false};
}

}  // namespace hil::config
