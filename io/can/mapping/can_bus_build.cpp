#include "io/can/mapping/can_bus_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "io/can/e2e/alive_counter.hpp"

namespace hil::io::can::detail {

std::string snake_case(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (std::isupper(c) != 0) {
      const bool after_lower = i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])) != 0;
      if (after_lower && !out.empty() && out.back() != '_') out += '_';
      out += static_cast<char>(std::tolower(c));
    } else if (std::isalnum(c) != 0) {
      out += static_cast<char>(c);
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front())) != 0) out = "m" + out;
  return out;
}

std::vector<double> start_values(const dbc::Message& message) {
  std::vector<double> values;
  for (const dbc::Signal& s : message.signals) {
    values.push_back(s.start_value_raw ? *s.start_value_raw * s.factor + s.offset : 0.0);
  }
  return values;
}

TransportSpec options_for(const CanBusSpec& spec, const dbc::CompiledDatabase& db) {
  TransportSpec options;
  for (const RxMessageSpec& r : spec.rx) {
    if (const dbc::Message* m = spec.database.find_message(r.message)) {
      options.socketcan.filters.push_back(
          {.id = m->id, .mask = m->extended ? 0x1FFF'FFFFU : 0x7FFU, .extended = m->extended});
    }
  }
  (void)db;
  return options;
}

bool check_crc(const E2e& e2e, std::span<const std::uint8_t> payload) noexcept {
  if (e2e.crc < 0) return true;
  if (e2e.crc_byte >= payload.size()) return false;
  return crc8_j1850(payload, e2e.crc_byte, e2e.crc_data_id) == payload[e2e.crc_byte];
}

void write_crc(const E2e& e2e, CanFrame& frame) noexcept {
  if (e2e.crc < 0 || e2e.crc_byte >= frame.length) return;
  frame.data[e2e.crc_byte] = crc8_j1850(frame.payload(), e2e.crc_byte, e2e.crc_data_id);
}

namespace {

/// "; did you mean \"X\"?" for the candidate equal to `name` but for case, or sharing its
/// longest prefix (at least half of it); "" when none is close.
template <class Range, class Name>
std::string did_you_mean(const std::string& name, const Range& candidates, Name&& name_of) {
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  std::string best;
  std::size_t best_common = name.size() / 2;
  for (const auto& candidate : candidates) {
    const std::string& text = name_of(candidate);
    if (lower(text) == lower(name)) return fmt::format("; did you mean \"{}\"?", text);
    const auto [a, b] = std::mismatch(text.begin(), text.end(), name.begin(), name.end());
    const auto common = static_cast<std::size_t>(a - text.begin());
    if (common > best_common) {
      best_common = common;
      best = text;
    }
  }
  return best.empty() ? std::string() : fmt::format("; did you mean \"{}\"?", best);
}

}  // namespace

std::int32_t Resolver::message(const std::string& name, const std::string& field) const {
  const auto& messages = spec_.database.messages;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (messages[i].name == name) return static_cast<std::int32_t>(i);
  }
  problems_.push_back(
      {field,
       fmt::format("no message \"{}\" in {}{}", name, spec_.database.file_name,
                   did_you_mean(name, messages, [](const dbc::Message& m) -> const std::string& {
                     return m.name;
                   }))});
  return -1;
}

std::int32_t Resolver::signal(std::int32_t message, const std::string& name,
                              const std::string& field) const {
  const dbc::Message& m = spec_.database.messages[static_cast<std::size_t>(message)];
  for (std::size_t i = 0; i < m.signals.size(); ++i) {
    if (m.signals[i].name == name) return static_cast<std::int32_t>(i);
  }
  problems_.push_back(
      {field,
       fmt::format("no signal \"{}\" in message {} of {}{}", name, m.name, spec_.database.file_name,
                   did_you_mean(name, m.signals, [](const dbc::Signal& sig) -> const std::string& {
                     return sig.name;
                   }))});
  return -1;
}

std::optional<rt::ChannelId> Resolver::channel(const std::string& name, const std::string& field,
                                               std::optional<rt::Direction> required) const {
  try {
    const rt::ChannelId id = table_.resolve(name);
    if (required && table_.spec(id).direction != *required) {
      problems_.push_back({field, fmt::format("channel {} is an {}; a received signal must drive "
                                              "an input channel",
                                              name, to_string(table_.spec(id).direction))});
      return std::nullopt;
    }
    return id;
  } catch (const std::out_of_range& e) {
    problems_.push_back({field, e.what()});
    return std::nullopt;
  }
}

std::vector<Binding> Resolver::bindings(std::int32_t message,
                                        const std::vector<SignalBinding>& bindings,
                                        const std::string& at,
                                        std::optional<rt::Direction> channel_direction) const {
  std::vector<Binding> out;
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    const std::string field = fmt::format("{}.signals[{}]", at, i);
    const std::int32_t s = signal(message, bindings[i].signal, field + ".signal");
    const std::optional<rt::ChannelId> c =
        channel(bindings[i].channel, field + ".channel", channel_direction);
    if (s >= 0 && c) out.push_back({static_cast<std::size_t>(s), *c});
  }
  return out;
}

E2e Resolver::e2e(std::int32_t message, const std::string& counter, const std::string& crc,
                  std::optional<std::uint8_t> data_id, const std::string& at) const {
  E2e e;
  const dbc::Message& m = spec_.database.messages[static_cast<std::size_t>(message)];
  if (!counter.empty()) {
    e.counter = signal(message, counter, at + ".alive_counter");
    if (e.counter >= 0) {
      const dbc::Signal& s = m.signals[static_cast<std::size_t>(e.counter)];
      if (s.length > 32 || s.is_signed || s.value_type != dbc::ValueType::integer) {
        problems_.push_back({at + ".alive_counter",
                             fmt::format("{} must be an unsigned integer of 1..32 bits", counter)});
        e.counter = -1;
      } else {
        e.counter_bits = s.length;
      }
    }
  }
  if (!crc.empty()) {
    e.crc = signal(message, crc, at + ".crc");
    if (e.crc >= 0) {
      const dbc::Signal& s = m.signals[static_cast<std::size_t>(e.crc)];
      // One whole byte: Intel starts at its LSB (bit 0 of a byte), Motorola at its MSB (bit 7)
      const bool aligned =
          s.length == 8 && s.value_type == dbc::ValueType::integer &&
          s.start_bit % 8 == (s.byte_order == dbc::ByteOrder::little_endian ? 0U : 7U);
      if (!aligned) {
        problems_.push_back({at + ".crc", fmt::format("{} must be 8 bits filling one byte", crc)});
        e.crc = -1;
      } else {
        e.crc_byte = s.start_bit / 8;
        e.crc_data_id = data_id;
      }
    }
  }
  return e;
}

std::optional<std::int64_t> Resolver::cycle_ticks(std::int32_t message,
                                                  std::optional<double> override_s,
                                                  double period_s) const {
  const dbc::Message& m = spec_.database.messages[static_cast<std::size_t>(message)];
  std::optional<double> cycle_s = override_s;
  if (!cycle_s && m.cycle_time_ms) cycle_s = *m.cycle_time_ms / 1000.0;
  if (!cycle_s) return std::nullopt;
  return std::max<std::int64_t>(1, std::llround(*cycle_s / period_s));
}

}  // namespace hil::io::can::detail
