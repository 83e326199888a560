#include "io/can/trace/candump_log.hpp"

#include <array>
#include <charconv>

namespace hil::io::can {
namespace {

constexpr std::size_t kMaxSecondsDigits = 18;  // fits int64 without overflow
constexpr std::size_t kPaddedSecondsDigits = 10;
constexpr std::size_t kMicrosecondDigits = 6;
constexpr std::size_t kNanosecondDigits = 9;

bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }
bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
/// Interface names: no blanks and no control characters (bytes above 0x7F, UTF-8, are fine).
bool is_interface_char(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return u > ' ' && u != 0x7F;
}

/// A blank-separated field of a line and its column.
struct Field {
  std::string_view text;
  std::size_t column = 0;
};

/// Next field of `line` at or after `pos` (empty text at the end).
Field next_field(std::string_view line, std::size_t& pos) noexcept {
  while (pos < line.size() && is_blank(line[pos])) ++pos;
  const std::size_t begin = pos;
  while (pos < line.size() && !is_blank(line[pos])) ++pos;
  return {line.substr(begin, pos - begin), begin};
}

CandumpParseResult fail(std::size_t column, std::string_view message) noexcept {
  CandumpParseResult r;
  r.error = {.column = column, .message = message};
  return r;
}

/// "(SECONDS.FRACTION)" with 6 or 9 fraction digits; sets `time` or returns an error message.
std::string_view parse_timestamp(std::string_view t, CandumpTimestamp& time,
                                 std::size_t& bad_offset) noexcept {
  bad_offset = 0;
  if (t.empty() || t.front() != '(')
    return "expected '(' and the timestamp, e.g. (1700000000.000000)";
  std::size_t i = 1;
  std::int64_t seconds = 0;
  while (i < t.size() && is_digit(t[i])) {
    if (i > kMaxSecondsDigits) {
      bad_offset = i;
      return "timestamp seconds have more than 18 digits";
    }
    seconds = seconds * 10 + (t[i++] - '0');
  }
  if (i == 1 || i == t.size() || t[i] != '.') {
    bad_offset = i;
    return "expected SECONDS.FRACTION in the timestamp, e.g. (1700000000.000000)";
  }
  const std::size_t fraction_begin = ++i;
  std::uint32_t fraction = 0;
  for (; i < t.size() && is_digit(t[i]); ++i) {
    if (i - fraction_begin < kNanosecondDigits) {
      fraction = fraction * 10 + static_cast<std::uint32_t>(t[i] - '0');
    }
  }
  const std::size_t digits = i - fraction_begin;
  if (digits != kMicrosecondDigits && digits != kNanosecondDigits) {
    bad_offset = fraction_begin;
    return "expected 6 (microseconds) or 9 (nanoseconds) decimals in the timestamp";
  }
  if (i != t.size() - 1 || t[i] != ')') {
    bad_offset = i;
    return "expected ')' after the timestamp's decimals";
  }
  time.seconds = seconds;
  time.nanoseconds = digits == kMicrosecondDigits ? fraction * 1000 : fraction;
  return {};
}

/// Writes `value` in decimal, left-padded with zeros to `width` digits.
std::size_t put_decimal(std::uint64_t value, std::size_t width, char* out) noexcept {
  std::array<char, 20> digits{};
  const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), value);
  const auto count = static_cast<std::size_t>(end - digits.data());
  std::size_t n = 0;
  for (std::size_t pad = count; pad < width; ++pad) out[n++] = '0';
  for (std::size_t i = 0; i < count; ++i) out[n++] = digits[i];
  return n;
}

}  // namespace

CandumpParseResult parse_candump_line(std::string_view text) noexcept {
  std::size_t pos = 0;
  const Field stamp = next_field(text, pos);
  CandumpParseResult r;
  std::size_t bad = 0;
  const std::string_view stamp_error = parse_timestamp(stamp.text, r.line.time, bad);
  if (!stamp_error.empty()) return fail(stamp.column + bad, stamp_error);

  const Field iface = next_field(text, pos);
  if (iface.text.empty())
    return fail(iface.column, "expected the interface name after the timestamp");
  if (iface.text.size() > kMaxInterfaceLength) {
    return fail(iface.column, "interface name longer than 64 characters");
  }
  for (std::size_t i = 0; i < iface.text.size(); ++i) {
    if (!is_interface_char(iface.text[i])) {
      return fail(iface.column + i, "control character in the interface name");
    }
  }
  r.line.interface = iface.text;

  const Field frame = next_field(text, pos);
  if (frame.text.empty())
    return fail(frame.column, "expected the frame (ID#DATA) after the interface");
  const FrameParseResult parsed = parse_frame_text(frame.text);
  if (!parsed.ok) return fail(frame.column + parsed.error.column, parsed.error.message);
  r.line.frame = parsed.frame;

  const Field suffix = next_field(text, pos);
  if (suffix.text == "R" || suffix.text == "r") {
    r.line.direction = CandumpDirection::received;
  } else if (suffix.text == "T" || suffix.text == "t") {
    r.line.direction = CandumpDirection::transmitted;
  } else if (!suffix.text.empty()) {
    return fail(suffix.column,
                "expected the end of the line or a direction 'R'/'T' after the frame");
  }
  const Field extra = next_field(text, pos);
  if (!extra.text.empty()) return fail(extra.column, "unexpected text after the direction");
  r.ok = true;
  return r;
}

std::size_t format_candump_line(const CandumpLine& line, std::span<char> out) noexcept {
  if (out.size() < kMaxCandumpLineLength || line.time.seconds < 0 ||
      line.time.nanoseconds > 999'999'999 || line.interface.empty() ||
      line.interface.size() > kMaxInterfaceLength) {
    return 0;
  }
  for (const char c : line.interface) {
    if (!is_interface_char(c)) return 0;
  }
  char* p = out.data();
  std::size_t n = 0;
  p[n++] = '(';
  n += put_decimal(static_cast<std::uint64_t>(line.time.seconds), kPaddedSecondsDigits, p + n);
  p[n++] = '.';
  n += put_decimal(line.time.nanoseconds / 1000, kMicrosecondDigits, p + n);
  p[n++] = ')';
  p[n++] = ' ';
  for (const char c : line.interface) p[n++] = c;
  p[n++] = ' ';
  const std::size_t frame_length = format_frame_text(line.frame, out.subspan(n));
  if (frame_length == 0) return 0;
  n += frame_length;
  if (line.direction != CandumpDirection::unspecified) {
    p[n++] = ' ';
    p[n++] = line.direction == CandumpDirection::received ? 'R' : 'T';
  }
  return n;
}

std::string to_candump_line(const CandumpLine& line) {
  std::array<char, kMaxCandumpLineLength> buffer{};
  return {buffer.data(), format_candump_line(line, buffer)};
}

}  // namespace hil::io::can
