#include "rt_core/channel_condition.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace hil::rt {

std::string_view to_string(Compare c) noexcept {
  switch (c) {
    case Compare::greater:
      return ">";
    case Compare::less:
      return "<";
    case Compare::greater_equal:
      return ">=";
    case Compare::less_equal:
      return "<=";
    case Compare::equal:
      return "==";
    case Compare::not_equal:
      return "!=";
  }
  return "?";
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<ConditionText> parse_condition(std::string_view text, std::string& error) {
  // the two-character operators first: ">=" is not ">" followed by "="
  static constexpr std::array<std::pair<std::string_view, Compare>, 6> kOps{{
      {">=", Compare::greater_equal},
      {"<=", Compare::less_equal},
      {"==", Compare::equal},
      {"!=", Compare::not_equal},
      {">", Compare::greater},
      {"<", Compare::less},
  }};
  for (const auto& [symbol, op] : kOps) {
    const std::size_t at = text.find(symbol);
    if (at == std::string_view::npos) continue;
    const std::string_view name = trim(text.substr(0, at));
    const std::string_view number = trim(text.substr(at + symbol.size()));
    if (!is_valid_channel_name(name)) {
      error = fmt::format(
          "'{}': '{}' is not a channel name (expected CHANNEL OP VALUE, e.g. "
          "'vehicle.body.speed > 0.9')",
          text, name);
      return std::nullopt;
    }
    double value = 0.0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() ||
        !std::isfinite(value)) {
      error = fmt::format(
          "'{}': '{}' is not a number (expected CHANNEL OP VALUE, e.g. "
          "'vehicle.body.speed > 0.9')",
          text, number);
      return std::nullopt;
    }
    return ConditionText{.channel = std::string(name), .op = op, .threshold = value};
  }
  error = fmt::format(
      "'{}': no comparison (expected CHANNEL OP VALUE with OP one of > < >= <= == !=, e.g. "
      "'vehicle.body.speed > 0.9')",
      text);
  return std::nullopt;
}

}  // namespace hil::rt
