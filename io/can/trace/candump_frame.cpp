#include "io/can/trace/candump_frame.hpp"

#include <array>

namespace hil::io::can {
namespace {

constexpr std::size_t kStandardIdDigits = 3;
constexpr std::size_t kExtendedIdDigits = 8;
constexpr std::array<char, 16> kHexDigits{'0', '1', '2', '3', '4', '5', '6', '7',
                                          '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

/// Value of one hex digit, or -1.
int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

FrameParseResult fail(std::size_t column, std::string_view message) noexcept {
  FrameParseResult r;
  r.error = {.column = column, .message = message};
  return r;
}

/// Parses the id digits text[0, end) into r.frame; returns false (and sets r.error) if bad.
bool parse_id(std::string_view text, std::size_t end, FrameParseResult& r) noexcept {
  if (end != kStandardIdDigits && end != kExtendedIdDigits) {
    r.error = {0, "expected a 3-digit (11-bit) or 8-digit (29-bit) hex id before '#'"};
    return false;
  }
  std::uint32_t id = 0;
  for (std::size_t i = 0; i < end; ++i) {
    const int v = hex_value(text[i]);
    if (v < 0) {
      r.error = {i, "expected a hex digit in the id"};
      return false;
    }
    id = (id << 4U) | static_cast<std::uint32_t>(v);
  }
  if (end == kStandardIdDigits) {
    if (id > kMaxStandardId) {
      r.error = {0, "a 3-digit (11-bit) id must be at most 7FF"};
      return false;
    }
    r.frame.id = id;
    return true;
  }
  if ((id & ~(kCanErrFlag | kMaxExtendedId)) != 0) {
    r.error = {0, "an 8-digit id must be at most 1FFFFFFF (or an error frame, 2xxxxxxx)"};
    return false;
  }
  r.frame.id = id & kMaxExtendedId;
  r.frame.flags = (id & kCanErrFlag) != 0 ? kError : kExtended;
  return true;
}

/// Parses "R" or "R<len>" starting at text[pos] (which is 'R' or 'r').
bool parse_remote(std::string_view text, std::size_t pos, FrameParseResult& r) noexcept {
  if (r.frame.error()) {
    r.error = {pos, "an error frame cannot be a remote request ('R')"};
    return false;
  }
  r.frame.flags |= kRemote;
  ++pos;
  if (pos == text.size()) return true;
  const char c = text[pos];
  if (c < '0' || c > '8' || pos + 1 != text.size()) {
    r.error = {pos, "expected nothing or one length digit 0-8 after 'R'"};
    return false;
  }
  r.frame.length = static_cast<std::uint8_t>(c - '0');
  return true;
}

/// Parses hex byte pairs (optionally '.'-separated) from text[pos, end).
bool parse_data(std::string_view text, std::size_t pos, FrameParseResult& r) noexcept {
  const std::size_t max_length = r.frame.fd() ? kMaxFdLength : kMaxClassicLength;
  std::size_t length = 0;
  while (pos < text.size()) {
    if (text[pos] == '.') {
      ++pos;
      continue;
    }
    const int hi = hex_value(text[pos]);
    if (hi < 0) {
      r.error = {pos, "expected a hex digit in the data"};
      return false;
    }
    if (pos + 1 == text.size() || hex_value(text[pos + 1]) < 0) {
      r.error = {pos + 1, "expected two hex digits per data byte"};
      return false;
    }
    if (length == max_length) {
      r.error = {pos, r.frame.fd() ? "more than 64 data bytes in an FD frame"
                                   : "more than 8 data bytes in a classic frame (FD uses '##')"};
      return false;
    }
    r.frame.data[length++] = static_cast<std::uint8_t>((hi << 4) | hex_value(text[pos + 1]));
    pos += 2;
  }
  if (r.frame.fd() && !is_valid_fd_length(length)) {
    r.error = {text.size(), "an FD frame carries 0-8, 12, 16, 20, 24, 32, 48 or 64 bytes"};
    return false;
  }
  r.frame.length = static_cast<std::uint8_t>(length);
  return true;
}

}  // namespace

FrameParseResult parse_frame_text(std::string_view text) noexcept {
  const std::size_t hash = text.find('#');
  if (hash == std::string_view::npos) return fail(text.size(), "expected '#' after the id");
  FrameParseResult r;
  if (!parse_id(text, hash, r)) return r;
  std::size_t pos = hash + 1;
  if (pos < text.size() && text[pos] == '#') {
    if (r.frame.error()) return fail(pos, "an error frame cannot be an FD frame ('##')");
    ++pos;
    const int fd_flags = pos < text.size() ? hex_value(text[pos]) : -1;
    if (fd_flags < 0) return fail(pos, "expected the FD flags hex digit after '##'");
    r.frame.flags |= kFd;
    if ((fd_flags & kCandumpFdBrs) != 0) r.frame.flags |= kBrs;
    if ((fd_flags & kCandumpFdEsi) != 0) r.frame.flags |= kEsi;
    ++pos;
  } else if (pos < text.size() && (text[pos] == 'R' || text[pos] == 'r')) {
    if (!parse_remote(text, pos, r)) return r;
    r.ok = true;
    return r;
  }
  if (!parse_data(text, pos, r)) return r;
  r.ok = true;
  return r;
}

std::size_t format_frame_text(const CanFrame& frame, std::span<char> out) noexcept {
  if (!is_valid(frame) || out.size() < kMaxFrameTextLength) return 0;
  std::size_t n = 0;
  const auto put_hex = [&](std::uint32_t value, std::size_t digits) {
    for (std::size_t i = digits; i-- > 0;) out[n++] = kHexDigits[(value >> (4 * i)) & 0xFU];
  };
  if (frame.error()) {
    put_hex(kCanErrFlag | (frame.id & kMaxExtendedId), kExtendedIdDigits);
  } else {
    put_hex(frame.id, frame.extended() ? kExtendedIdDigits : kStandardIdDigits);
  }
  out[n++] = '#';
  if (frame.remote()) {
    out[n++] = 'R';
    if (frame.length != 0) out[n++] = kHexDigits[frame.length];
    return n;
  }
  if (frame.fd()) {
    out[n++] = '#';
    put_hex((frame.brs() ? kCandumpFdBrs : 0U) | (frame.esi() ? kCandumpFdEsi : 0U), 1);
  }
  for (std::size_t i = 0; i < frame.length; ++i) put_hex(frame.data[i], 2);
  return n;
}

std::string to_frame_text(const CanFrame& frame) {
  std::array<char, kMaxFrameTextLength> buffer{};
  return {buffer.data(), format_frame_text(frame, buffer)};
}

}  // namespace hil::io::can
