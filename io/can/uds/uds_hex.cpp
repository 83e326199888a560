#include "io/can/uds/uds_hex.hpp"

#include <stdexcept>

namespace hil::io::can::uds {

namespace {

int digit_value(char ch) noexcept {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

}  // namespace

std::vector<std::uint8_t> parse_hex_bytes(std::string_view text) {
  std::vector<std::uint8_t> out;
  int high = -1;
  for (const char ch : text) {
    if (ch == ' ') continue;
    const int v = digit_value(ch);
    if (v < 0) throw std::invalid_argument(std::string("'") + ch + "' is not a hex digit");
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<std::uint8_t>((high << 4) | v));
      high = -1;
    }
  }
  if (high >= 0) throw std::invalid_argument("an odd number of hex digits");
  return out;
}

std::string hex_text(std::span<const std::uint8_t> bytes, std::string_view separator) {
  std::string out;
  out.reserve(bytes.size() * (2 + separator.size()));
  for (const std::uint8_t b : bytes) {
    if (!out.empty()) out += separator;
    constexpr std::string_view kDigits = "0123456789ABCDEF";
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

}  // namespace hil::io::can::uds
