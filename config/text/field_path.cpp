#include "config/text/field_path.hpp"

#include <charconv>
#include <limits>
#include <span>
#include <string>

namespace hil::config {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

struct Segment {
  std::string_view name;
  int index = -1;
};

/// "buses[1]" → {"buses", 1}; nullopt when the brackets are malformed.
[[nodiscard]] std::optional<Segment> parse_segment(std::string_view text) {
  const std::size_t open = text.find('[');
  if (open == std::string_view::npos) return Segment{text, -1};
  if (!text.ends_with(']')) return std::nullopt;
  const std::string_view digits = text.substr(open + 1, text.size() - open - 2);
  int index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc{} || end != digits.data() + digits.size() || index < 0) return std::nullopt;
  return Segment{text.substr(0, open), index};
}

[[nodiscard]] bool is_element_present(const Message& message, PathStep step) {
  const auto& reflection = *message.GetReflection();
  return step.field->is_repeated() ? step.index < reflection.FieldSize(message, step.field)
                                   : reflection.HasField(message, step.field);
}

/// The message that holds the last step's field, when every message on the way is set;
/// nullptr otherwise.
[[nodiscard]] const Message* holder_if_set(const Message& root, std::span<const PathStep> steps) {
  const Message* message = &root;
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    if (!is_element_present(*message, steps[i])) return nullptr;
    const auto& reflection = *message->GetReflection();
    message = steps[i].field->is_repeated()
                  ? &reflection.GetRepeatedMessage(*message, steps[i].field, steps[i].index)
                  : &reflection.GetMessage(*message, steps[i].field);
  }
  return message;
}

}  // namespace

std::optional<std::vector<PathStep>> resolve_field_path(const Descriptor& root,
                                                        std::string_view path) {
  std::vector<PathStep> steps;
  const Descriptor* current = &root;
  while (!path.empty()) {
    if (current == nullptr) return std::nullopt;  // a scalar field was not the last step
    const std::size_t dot = path.find('.');
    const std::optional<Segment> segment = parse_segment(path.substr(0, dot));
    if (!segment) return std::nullopt;
    const FieldDescriptor* field = current->FindFieldByName(std::string(segment->name));
    if (field == nullptr || field->is_repeated() != (segment->index >= 0)) return std::nullopt;
    steps.push_back(PathStep{field, segment->index});
    current = field->message_type();
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  }
  if (steps.empty()) return std::nullopt;
  return steps;
}

const FieldDescriptor* find_field(const Descriptor& root, std::string_view path) {
  const Descriptor* current = &root;
  const FieldDescriptor* field = nullptr;
  while (!path.empty() && current != nullptr) {
    const std::size_t dot = path.find('.');
    const std::string_view segment = path.substr(0, dot);
    field = current->FindFieldByName(std::string(segment.substr(0, segment.find('['))));
    if (field == nullptr) return nullptr;
    current = field->message_type();
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  }
  return path.empty() ? field : nullptr;
}

std::optional<std::int64_t> integer_at(const Message& root, std::string_view path) {
  const auto steps = resolve_field_path(*root.GetDescriptor(), path);
  if (!steps) return std::nullopt;
  const Message* holder = holder_if_set(root, *steps);
  const PathStep last = steps->back();
  if (holder == nullptr || !is_element_present(*holder, last)) return std::nullopt;
  const auto& reflection = *holder->GetReflection();
  const bool repeated = last.field->is_repeated();
  switch (last.field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return repeated ? reflection.GetRepeatedInt32(*holder, last.field, last.index)
                      : reflection.GetInt32(*holder, last.field);
    case FieldDescriptor::CPPTYPE_INT64:
      return repeated ? reflection.GetRepeatedInt64(*holder, last.field, last.index)
                      : reflection.GetInt64(*holder, last.field);
    case FieldDescriptor::CPPTYPE_UINT32:
      return repeated ? reflection.GetRepeatedUInt32(*holder, last.field, last.index)
                      : reflection.GetUInt32(*holder, last.field);
    case FieldDescriptor::CPPTYPE_UINT64: {
      const std::uint64_t value =
          repeated ? reflection.GetRepeatedUInt64(*holder, last.field, last.index)
                   : reflection.GetUInt64(*holder, last.field);
      constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      return static_cast<std::int64_t>(value > kMax ? kMax : value);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace hil::config
