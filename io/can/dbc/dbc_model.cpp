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

}  // namespace hil::io::can::dbc
