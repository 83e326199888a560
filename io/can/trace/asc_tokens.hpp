#pragma once
// The pieces the ASC line parser (asc_reader.cpp, asc_frame_lines.cpp) shares: blank-separated
// tokens with their columns, numbers in the file's base, result builders. Internal to io/can;
// pure functions, no allocation, no exceptions.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "io/can/trace/asc_reader.hpp"

namespace hil::io::can::detail {

struct AscToken {
  std::string_view text;
  std::size_t column = 0;  ///< where it starts; for a missing token, where it was expected
};

struct AscTokens {
  std::string_view line;
  std::size_t pos = 0;

  static bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }

  AscToken next() noexcept {
    while (pos < line.size() && is_blank(line[pos])) ++pos;
    const std::size_t begin = pos;
    while (pos < line.size() && !is_blank(line[pos])) ++pos;
    return {line.substr(begin, pos - begin), begin};
  }
  /// The token `ahead` places on (0 = the next one), without consuming anything.
  AscToken peek(std::size_t ahead = 0) noexcept {
    const std::size_t saved = pos;
    AscToken t = next();
    for (std::size_t i = 0; i < ahead; ++i) t = next();
    pos = saved;
    return t;
  }
};

namespace asc {

inline constexpr std::uint64_t kMaxChannel = 65'535;

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

/// Value of `c` as a digit of `base` (10 or 16), or -1.
inline int digit_value(char c, unsigned base) noexcept {
  int v = -1;
  if (c >= '0' && c <= '9') {
    v = c - '0';
  } else if (c >= 'a' && c <= 'f') {
    v = c - 'a' + 10;
  } else if (c >= 'A' && c <= 'F') {
    v = c - 'A' + 10;
  }
  return v < static_cast<int>(base) ? v : -1;
}

/// The whole of `text` as a number in `base`, at most `max` (< 2^59); nullopt otherwise.
inline std::optional<std::uint64_t> number(std::string_view text, unsigned base,
                                           std::uint64_t max) noexcept {
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    const int d = digit_value(c, base);
    if (d < 0) return std::nullopt;
    value = value * base + static_cast<std::uint64_t>(d);
    if (value > max) return std::nullopt;
  }
  return value;
}

inline bool iequals(std::string_view a, std::string_view b) noexcept {
  return std::ranges::equal(a, b, [](char x, char y) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(x) == lower(y);
  });
}

inline bool is_direction(std::string_view text) noexcept {
  return iequals(text, "Rx") || iequals(text, "Tx");
}

inline AscLineResult of_kind(AscLineResult::Kind kind) noexcept {
  AscLineResult r;
  r.kind = kind;
  return r;
}

inline AscLineResult bad(std::size_t column, std::string_view message) noexcept {
  AscLineResult r;
  r.kind = AscLineResult::Kind::bad;
  r.error = {.column = column, .message = message};
  return r;
}

inline AscLineResult with_frame(const AscFrame& frame) noexcept {
  AscLineResult r;
  r.kind = AscLineResult::Kind::frame;
  r.frame = frame;
  return r;
}

/// A channel number 1..65535, or nullopt.
inline std::optional<std::uint32_t> parse_channel(std::string_view text) noexcept {
  const auto value = number(text, 10, kMaxChannel);
  if (!value || *value == 0) return std::nullopt;
  return static_cast<std::uint32_t>(*value);
}

/// The error frame asc2log makes of an ASC ErrorFrame.
inline AscFrame error_frame(AscFrame f) noexcept {
  f.frame = {};
  f.frame.id = kAscErrorFrameClass;
  f.frame.flags = kError;
  f.frame.length = kMaxClassicLength;
  return f;
}

}  // namespace asc
}  // namespace hil::io::can::detail
