#include "io/can/dbc/dbc_model.hpp"

#include <algorithm>

namespace hil::io::can::dbc {

const std::string* Signal::value_text(std::int64_t raw) const noexcept {
  const auto it =
      std::lower_bound(value_descriptions.begin(), value_descriptions.end(), raw,
                       [](const ValueDescription& d, std::int64_t v) { return d.value < v; });
  return it != value_descriptions.end() && it->value == raw ? &it->text : nullptr;
}

const Signal* Message::find_signal(std::string_view signal_name) const noexcept {
  const auto it = std::find_if(signals.begin(), signals.end(),
                               [&](const Signal& s) { return s.name == signal_name; });
  return it != signals.end() ? &*it : nullptr;
}

const Message* Database::find_message(std::string_view message_name) const noexcept {
  const auto it = std::find_if(messages.begin(), messages.end(),
                               [&](const Message& m) { return m.name == message_name; });
  return it != messages.end() ? &*it : nullptr;
}

const Message* Database::find_message(std::uint32_t id, bool extended) const noexcept {
  const auto it = std::find_if(messages.begin(), messages.end(), [&](const Message& m) {
    return m.id == id && m.extended == extended;
  });
  return it != messages.end() ? &*it : nullptr;
}

const AttributeValue* Database::attribute(const Attributes& on,
                                          std::string_view name) const noexcept {
  if (const auto it = on.find(name); it != on.end()) return &it->second;
  for (const AttributeDefinition& d : attribute_definitions) {
    if (d.name == name && d.default_value) return &*d.default_value;
  }
  return nullptr;
}

std::optional<double> Database::number_attribute(const Attributes& on,
                                                 std::string_view name) const noexcept {
  const AttributeValue* v = attribute(on, name);
  if (v == nullptr) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(v)) return *d;
  return std::nullopt;
}

std::optional<std::string> Database::text_attribute(const Attributes& on,
                                                    std::string_view name) const {
  const AttributeValue* v = attribute(on, name);
  if (v == nullptr) return std::nullopt;
  if (const auto* s = std::get_if<std::string>(v)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(v)) return std::to_string(*i);
  return std::nullopt;
}

}  // namespace hil::io::can::dbc
