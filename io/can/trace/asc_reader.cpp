#include "io/can/trace/asc_reader.hpp"

#include <fmt/format.h>

#include <utility>

#include "io/can/trace/asc_tokens.hpp"
#include "io/can/trace/text_lines.hpp"

namespace hil::io::can {
namespace {

using detail::AscToken;
using detail::AscTokens;
using namespace detail::asc;  // NOLINT(google-build-using-namespace): the parser's toolbox
using Kind = AscLineResult::Kind;

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::size_t kMaxSecondsDigits = 9;   // 31 years: sums of times stay far from overflow
constexpr std::size_t kMaxFractionDigits = 9;  // nanoseconds

/// "SECONDS.FRACTION" as nanoseconds; -1 with `bad_offset` set when it is not one.
std::int64_t parse_time(std::string_view t, std::size_t& bad_offset) noexcept {
  std::size_t i = 0;
  std::int64_t seconds = 0;
  for (; i < t.size() && is_digit(t[i]); ++i) {
    if (i == kMaxSecondsDigits) {
      bad_offset = i;
      return -1;
    }
    seconds = seconds * 10 + (t[i] - '0');
  }
  if (i == 0 || i == t.size() || t[i] != '.') {
    bad_offset = i;
    return -1;
  }
  const std::size_t begin = ++i;
  std::int64_t fraction = 0;
  for (; i < t.size() && is_digit(t[i]); ++i) {
    if (i - begin == kMaxFractionDigits) break;
    fraction = fraction * 10 + (t[i] - '0');
  }
  if (i == begin || i != t.size()) {
    bad_offset = i;
    return -1;
  }
  for (std::size_t digits = i - begin; digits < kMaxFractionDigits; ++digits) fraction *= 10;
  return seconds * kNanosPerSecond + fraction;
}

}  // namespace

AscLineResult AscLineParser::parse(std::string_view line) noexcept {
  AscTokens tokens{.line = line};
  const AscToken first = tokens.next();
  if (first.text.empty() || first.text.starts_with("//")) return of_kind(Kind::header);
  if (is_digit(first.text.front())) return parse_timestamped(first.text, first.column, tokens);
  return parse_header(first.text, first.column, tokens);
}

AscLineResult AscLineParser::parse_header(std::string_view first, std::size_t column,
                                          AscTokens& tokens) noexcept {
  if (iequals(first, "date")) return of_kind(Kind::header);
  if (iequals(first, "base")) {
    const AscToken b = tokens.next();
    if (!iequals(b.text, "hex") && !iequals(b.text, "dec")) {
      return bad(b.column, "expected 'hex' or 'dec' after 'base'");
    }
    const AscToken stamps = tokens.next();
    const AscToken mode = tokens.next();
    if (!stamps.text.empty()) {
      if (!iequals(stamps.text, "timestamps")) {
        return bad(stamps.column, "expected 'timestamps absolute' or 'timestamps relative'");
      }
      if (!iequals(mode.text, "absolute") && !iequals(mode.text, "relative")) {
        return bad(mode.column, "expected 'absolute' or 'relative' after 'timestamps'");
      }
      relative_ = iequals(mode.text, "relative");
    }
    base_ = iequals(b.text, "dec") ? 10 : 16;
    return of_kind(Kind::header);
  }
  if (iequals(first, "no") || iequals(first, "internal")) {
    const AscToken internal = iequals(first, "no") ? tokens.next() : AscToken{first, column};
    if (iequals(internal.text, "internal") && iequals(tokens.next().text, "events") &&
        iequals(tokens.next().text, "logged")) {
      return of_kind(Kind::header);
    }
    return bad(column, "expected 'internal events logged' or 'no internal events logged'");
  }
  if (iequals(first, "begin") || iequals(first, "end")) {
    const AscToken block = tokens.next();
    if (!iequals(block.text, "triggerblock")) {
      return bad(block.column, "expected 'Triggerblock' after 'Begin' or 'End'");
    }
    if (iequals(first, "begin") && timed_line_seen_) block_offset_ns_ = last_time_ns_;
    return of_kind(Kind::header);
  }
  return bad(column,
             "expected a timestamp or a header line (date, base, internal events logged, "
             "Begin/End Triggerblock, // comment)");
}

AscLineResult AscLineParser::parse_timestamped(std::string_view first, std::size_t column,
                                               AscTokens& tokens) noexcept {
  std::size_t bad_offset = 0;
  const std::int64_t t = parse_time(first, bad_offset);
  if (t < 0) {
    return bad(column + bad_offset,
               "expected the time in seconds with 1 to 9 decimals, e.g. 0.001000");
  }
  AscFrame frame;
  if (__builtin_add_overflow(relative_ ? last_time_ns_ : block_offset_ns_, t, &frame.time_ns)) {
    return bad(column, "the time overflows (more than 292 years since the start)");
  }
  const AscToken second = tokens.next();
  AscLineResult r = of_kind(Kind::event);
  if (second.text.empty()) {
    return bad(second.column, "expected a channel, CANFD or an event after the time");
  }
  if (iequals(second.text, "CANFD")) {
    r = parse_fd(frame, tokens);
  } else if (std::ranges::all_of(second.text, is_digit)) {
    const auto channel = parse_channel(second.text);
    if (!channel) return bad(second.column, "expected a channel number 1..65535");
    frame.channel = *channel;
    if (iequals(tokens.peek().text, "ErrorFrame")) {
      r = with_frame(error_frame(frame));
    } else if (is_direction(tokens.peek(1).text)) {
      r = parse_classic(frame, tokens);
    }  // else an event on a channel: "1 Statistic: …", "1 J1939TP …"
  }
  if (r.kind == Kind::bad) return r;
  last_time_ns_ = frame.time_ns;
  timed_line_seen_ = true;
  return r;
}

AscReader::AscReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  text_.reserve(kMaxAscReadLength);
}

AscReader::Status AscReader::next() {
  std::streambuf* buffer = in_.rdbuf();
  bool too_long = false;
  while (buffer != nullptr && read_bounded_line(*buffer, text_, kMaxAscReadLength, too_long)) {
    ++line_number_;
    AscLineResult r;
    if (too_long) {
      r = bad(kMaxAscReadLength, "line longer than 4096 characters");
    } else {
      r = parser_.parse(text_);
    }
    switch (r.kind) {
      case Kind::header:
        continue;
      case Kind::event:
        ++events_;
        continue;
      case Kind::frame:
        frame_ = r.frame;
        ++frames_;
        return Status::frame;
      case Kind::bad:
        bad_ = {.line = line_number_,
                .column = r.error.column + 1,
                .message = std::string(r.error.message)};
        ++bad_lines_;
        return Status::bad_line;
    }
  }
  return Status::end;
}

std::string AscReader::describe_bad_line() const {
  return fmt::format("{}:{}:{}: {}", name_, bad_.line, bad_.column, bad_.message);
}

}  // namespace hil::io::can
