#include "io/can/mapping/e2e_attributes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace hil::io::can {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A decimal or 0x-hex unsigned integer filling all of `text` (spaces around allowed).
std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<e2e::Profile> parse_e2e_profile(std::string_view text) {
  std::string digits;
  for (const char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) digits += c;
  }
  const std::string word = lower(text);
  const bool named = word.starts_with('p') || word.starts_with("profile") || word == digits;
  if (!named || digits.empty()) return std::nullopt;
  switch (std::stoi(digits)) {
    case 1:
      return e2e::Profile::p01;
    case 2:
      return e2e::Profile::p02;
    case 5:
      return e2e::Profile::p05;
    case 11:
      return e2e::Profile::p11;
    case 22:
      return e2e::Profile::p22;
    default:
      return std::nullopt;
  }
}

std::optional<e2e::DataIdMode> parse_data_id_mode(std::string_view text) {
  const std::string word = lower(text);
  if (word == "both") return e2e::DataIdMode::both;
  if (word == "alt" || word == "alternating") return e2e::DataIdMode::alt;
  if (word == "low") return e2e::DataIdMode::low;
  if (word == "nibble") return e2e::DataIdMode::nibble;
  return std::nullopt;
}

std::string_view data_id_mode_name(e2e::DataIdMode mode) noexcept {
  switch (mode) {
    case e2e::DataIdMode::both:
      return "both";
    case e2e::DataIdMode::alt:
      return "alt";
    case e2e::DataIdMode::low:
      return "low";
    case e2e::DataIdMode::nibble:
      return "nibble";
  }
  return "?";
}

std::optional<e2e::ProfileSpec> e2e_from_attributes(const dbc::Database& db,
                                                    const dbc::Message& message,
                                                    std::string& problem) {
  const dbc::Attributes& on = message.attributes;
  const std::optional<std::string> name = db.text_attribute(on, "E2E_Profile");
  if (!name || name->empty()) return std::nullopt;
  const auto fail = [&](const std::string& what) {
    problem =
        fmt::format("{}:{}: BO_ '{}': {}", db.file_name, message.location.line, message.name, what);
    return std::nullopt;
  };
  const std::optional<e2e::Profile> profile = parse_e2e_profile(*name);
  if (!profile)
    return fail(fmt::format("E2E_Profile \"{}\" is not P01, P02, P05, P11 or P22", *name));
  e2e::ProfileSpec c;
  c.profile = *profile;
  const auto number = [&](std::string_view attribute, double max) -> std::optional<std::uint32_t> {
    const std::optional<double> v = db.number_attribute(on, attribute);
    if (!v) return std::nullopt;
    if (*v < 0 || *v > max || std::trunc(*v) != *v) {
      problem = fmt::format("{}:{}: BO_ '{}': {} {} is out of range; expected 0..{}", db.file_name,
                            message.location.line, message.name, attribute, *v, max);
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(*v);
  };
  if (const auto v = number("E2E_DataID", 65535)) c.data_id = static_cast<std::uint16_t>(*v);
  if (const auto v = number("E2E_Offset", 4095)) c.offset_bits = *v;
  if (const auto v = number("E2E_CRCOffset", 4095)) c.crc_offset_bits = *v;
  if (const auto v = number("E2E_CounterOffset", 4095)) c.counter_offset_bits = *v;
  if (const auto v = number("E2E_DataIDNibbleOffset", 4095)) c.data_id_nibble_offset_bits = *v;
  if (const auto v = number("E2E_MaxDeltaCounter", 255))
    c.max_delta_counter = static_cast<std::uint8_t>(*v);
  if (!problem.empty()) return std::nullopt;
  if (const std::optional<std::string> mode = db.text_attribute(on, "E2E_DataIDMode");
      mode && !mode->empty()) {
    const std::optional<e2e::DataIdMode> m = parse_data_id_mode(*mode);
    if (!m)
      return fail(fmt::format("E2E_DataIDMode \"{}\" is not both, alt, low or nibble", *mode));
    c.data_id_mode = *m;
  }
  if (const std::optional<std::string> list = db.text_attribute(on, "E2E_DataIDList");
      list && !list->empty()) {
    std::size_t n = 0;
    std::string_view rest = *list;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::optional<std::uint64_t> v = parse_unsigned(rest.substr(0, comma));
      if (!v || *v > 255 || n == c.data_id_list.size()) {
        return fail(fmt::format("E2E_DataIDList \"{}\": expected 16 comma-separated bytes", *list));
      }
      c.data_id_list[n++] = static_cast<std::uint8_t>(*v);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    if (n != c.data_id_list.size()) {
      return fail(fmt::format("E2E_DataIDList \"{}\" has {} values; expected 16", *list, n));
    }
  }
  return c;
}

std::string describe_e2e(const e2e::ProfileSpec& c) {
  switch (c.profile) {
    case e2e::Profile::p01:
    case e2e::Profile::p11:
      return fmt::format("{} data id 0x{:03X} ({})", e2e::profile_name(c.profile), c.data_id,
                         data_id_mode_name(c.data_id_mode));
    case e2e::Profile::p05:
      return fmt::format("P05 data id 0x{:04X} at bit {}", c.data_id, c.offset_bits);
    case e2e::Profile::p02:
    case e2e::Profile::p22: {
      std::string list;
      for (const std::uint8_t v : c.data_id_list)
        list += fmt::format("{}{}", list.empty() ? "" : ",", v);
      return fmt::format("{} data id list {}{}", e2e::profile_name(c.profile), list,
                         c.profile == e2e::Profile::p22 ? fmt::format(" at bit {}", c.offset_bits)
                                                        : std::string());
    }
  }
  return "?";
}

}  // namespace hil::io::can
