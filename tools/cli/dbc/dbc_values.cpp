#include "tools/cli/dbc/dbc_values.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace hil::cli {

namespace dbc = io::can::dbc;

namespace {

constexpr double kExactIntegerLimit = 9007199254740992.0;  // 2^53

bool integral_scaling(const dbc::Signal& s) {
  return s.value_type == dbc::ValueType::integer && std::trunc(s.factor) == s.factor &&
         std::trunc(s.offset) == s.offset;
}

}  // namespace

std::string format_number(double value) {
  if (std::trunc(value) == value && std::abs(value) < kExactIntegerLimit) {
    return fmt::format("{}", static_cast<std::int64_t>(value));
  }
  return fmt::format("{:.15g}", value);
}

ShownValue show_value(const dbc::Message& message, const dbc::CompiledSignal& signal,
                      std::size_t index, std::span<const std::uint8_t> payload) {
  const dbc::Signal& s = message.signals[index];
  ShownValue shown;
  (void)dbc::decode_raw(signal, payload, shown.raw);
  double physical = 0.0;
  (void)dbc::decode_signal(signal, payload, physical);
  if (s.factor == 1.0 && s.offset == 0.0 && s.value_type == dbc::ValueType::integer) {
    // Exact, also beyond 2^53: the raw integer itself.
    const bool big_unsigned = !s.is_signed && shown.raw < 0;
    shown.number = big_unsigned ? fmt::format("{}", static_cast<std::uint64_t>(shown.raw))
                                : fmt::format("{}", shown.raw);
  } else {
    shown.number = format_number(physical);
  }
  if (s.value_type == dbc::ValueType::integer) {
    if (const std::string* text = s.value_text(shown.raw)) shown.label = *text;
  }
  return shown;
}

std::string format_signal_line(const dbc::Signal& signal, const ShownValue& value) {
  std::string line = signal.name + "=" + value.number;
  if (!signal.unit.empty()) line += " " + signal.unit;
  if (!value.label.empty()) line += " (" + value.label + ")";
  return line;
}

nlohmann::json signal_json(const dbc::Signal& signal, const dbc::CompiledSignal& compiled,
                           std::span<const std::uint8_t> payload, const ShownValue& value) {
  nlohmann::json j;
  double physical = 0.0;
  (void)dbc::decode_signal(compiled, payload, physical);
  j["value"] = physical;
  if (integral_scaling(signal)) j["value"] = nlohmann::json::parse(value.number);
  j["raw"] = value.raw;
  if (!signal.is_signed && value.raw < 0) j["raw"] = static_cast<std::uint64_t>(value.raw);
  j["unit"] = signal.unit;
  if (!value.label.empty()) j["label"] = value.label;
  return j;
}

std::optional<ExactInteger> parse_exact_integer(std::string_view text) {
  ExactInteger out;
  if (text.starts_with('-')) {
    out.negative = true;
    text.remove_prefix(1);
  } else if (text.starts_with('+')) {
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    base = 16;
    text.remove_prefix(2);
  }
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), out.magnitude, base);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return out;
}

double parse_signal_value(const dbc::Signal& signal, std::string_view value_text,
                          std::string_view argument) {
  for (const dbc::ValueDescription& d : signal.value_descriptions) {
    if (d.text == value_text) return static_cast<double>(d.value) * signal.factor + signal.offset;
  }
  std::string_view number = value_text;
  if (number.starts_with('+')) number.remove_prefix(1);
  if (number.starts_with("0x") || number.starts_with("0X")) {  // an integer in hex
    std::uint64_t integer = 0;
    const auto [end, ec] =
        std::from_chars(number.data() + 2, number.data() + number.size(), integer, 16);
    if (ec == std::errc{} && end == number.data() + number.size() && number.size() > 2) {
      return static_cast<double>(integer);
    }
  }
  double value = 0.0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc{} || end != number.data() + number.size() || number.empty()) {
    std::string names;
    for (const dbc::ValueDescription& d : signal.value_descriptions) {
      names += (names.empty() ? "" : ", ") + d.text;
    }
    throw CLI::ValidationError(
        std::string(argument),
        fmt::format("'{}' is not a number{}", value_text,
                    names.empty() ? std::string() : fmt::format(" nor one of {}", names)));
  }
  return value;
}

double start_value(const dbc::Signal& signal) {
  return signal.start_value_raw.value_or(0.0) * signal.factor + signal.offset;
}

}  // namespace hil::cli
