// The frame lines of an ASC file: classic (TIME CHANNEL ID Rx|Tx d|r …) and CAN FD
// (TIME CANFD CHANNEL Rx|Tx ID … FLAGS …); see asc_reader.hpp for the format.

#include "io/can/trace/asc_reader.hpp"

#include <optional>
#include <string_view>

#include "io/can/trace/asc_tokens.hpp"

namespace hil::io::can {
namespace {

using detail::AscToken;
using detail::AscTokens;
using namespace detail::asc;  // NOLINT(google-build-using-namespace): the parser's toolbox

constexpr std::uint64_t kFdFlagRemote = 0x10;  // CANFD line flags: remote request (RTR)
constexpr std::uint64_t kFdFlagEdl = 0x1000;   // CANFD line flags: EDL, an FD frame

/// Sets the id (and kExtended for a trailing 'x') of `frame`; an error message otherwise.
std::string_view parse_id(std::string_view text, unsigned base, CanFrame& frame) noexcept {
  const bool extended = text.size() > 1 && (text.back() == 'x' || text.back() == 'X');
  const auto id = number(extended ? text.substr(0, text.size() - 1) : text, base, 0xFFFF'FFFF);
  if (!id) {
    return base == 16 ? "expected a hex CAN id ('x' appended for a 29-bit id)"
                      : "expected a decimal CAN id ('x' appended for a 29-bit id)";
  }
  if (extended && *id > kMaxExtendedId) return "a 29-bit id must be at most 1FFFFFFF";
  if (!extended && *id > kMaxStandardId) {
    return "an 11-bit id must be at most 7FF (a 29-bit id ends in 'x')";
  }
  frame.id = static_cast<std::uint32_t>(*id);
  if (extended) frame.flags |= kExtended;
  return {};
}

/// Reads `count` data bytes into frame.data; an error result when they are not there.
std::optional<AscLineResult> read_bytes(AscTokens& tokens, std::size_t count, unsigned base,
                                        CanFrame& frame) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    const AscToken t = tokens.next();
    const auto byte = number(t.text, base, 0xFF);
    if (!byte) {
      return bad(t.column,
                 t.text.empty() ? "fewer data bytes than the length says" : "expected a data byte");
    }
    frame.data[i] = static_cast<std::uint8_t>(*byte);
  }
  return std::nullopt;
}

}  // namespace

AscLineResult AscLineParser::parse_classic(AscFrame f, AscTokens& tokens) const noexcept {
  const AscToken id = tokens.next();
  if (const std::string_view e = parse_id(id.text, base_, f.frame); !e.empty()) {
    return bad(id.column, e);
  }
  (void)tokens.next();  // Rx or Tx: the caller checked it
  const AscToken type = tokens.next();
  const bool remote = iequals(type.text, "r");
  if (!remote && !iequals(type.text, "d")) {
    return bad(type.column, "expected 'd' (data) or 'r' (remote request) after Rx/Tx");
  }
  const AscToken dlc_token = tokens.next();
  const auto dlc = number(dlc_token.text, base_, 15);
  if (remote) {
    f.frame.flags |= kRemote;  // "r" alone (pre-8.5 writers, log2asc -r) requests 0 bytes
    f.frame.length = static_cast<std::uint8_t>(dlc_to_length(dlc.value_or(0), false));
    return with_frame(f);  // anything after the DLC is an attribute (Length = …)
  }
  if (!dlc) return bad(dlc_token.column, "expected the DLC (0-F) after 'd'");
  f.frame.length = static_cast<std::uint8_t>(dlc_to_length(static_cast<std::uint8_t>(*dlc), false));
  if (auto e = read_bytes(tokens, f.frame.length, base_, f.frame)) return *e;
  const AscToken extra = tokens.next();  // CANoe appends "Length = … BitCount = … ID = …"
  if (number(extra.text, base_, 0xFF)) {
    return bad(extra.column, "more data bytes than the DLC says");
  }
  return with_frame(f);
}

AscLineResult AscLineParser::parse_fd(AscFrame f, AscTokens& tokens) const noexcept {
  const AscToken channel = tokens.next();
  const auto number_of_channel = parse_channel(channel.text);
  if (!number_of_channel) return bad(channel.column, "expected a channel number 1..65535");
  f.channel = *number_of_channel;
  const AscToken direction = tokens.next();
  if (!is_direction(direction.text)) return bad(direction.column, "expected Rx or Tx");
  const AscToken id = tokens.next();
  if (iequals(id.text, "ErrorFrame")) return with_frame(error_frame(f));
  if (const std::string_view e = parse_id(id.text, base_, f.frame); !e.empty()) {
    return bad(id.column, e);
  }
  AscToken brs = tokens.next();
  if (!brs.text.empty() && !std::ranges::all_of(brs.text, is_digit)) brs = tokens.next();  // name
  const AscToken esi = tokens.next();
  if (brs.text != "0" && brs.text != "1") return bad(brs.column, "expected BRS 0 or 1");
  if (esi.text != "0" && esi.text != "1") return bad(esi.column, "expected ESI 0 or 1");
  const AscToken dlc_token = tokens.next();
  const auto dlc = number(dlc_token.text, base_, 15);
  if (!dlc) return bad(dlc_token.column, "expected the DLC (0-F)");
  const AscToken length_token = tokens.next();
  const auto length = number(length_token.text, 10, kMaxFdLength);
  if (!length) return bad(length_token.column, "expected the data length 0-64 (decimal)");
  if (auto e = read_bytes(tokens, *length, base_, f.frame)) return *e;

  // Optional: message duration, message length (decimal), flags (hex); the rest is ignored.
  const AscToken duration = tokens.next();
  const AscToken bits = tokens.next();
  const AscToken flags_token = tokens.next();
  if (!duration.text.empty() && !number(duration.text, 10, 0xFFFF'FFFF)) {
    return bad(duration.column, "more data bytes than the data length says, or a bad duration");
  }
  if (!bits.text.empty() && !number(bits.text, 10, 0xFFFF'FFFF)) {
    return bad(bits.column, "expected the message length in bits (decimal)");
  }
  const auto flags = number(flags_token.text, 16, 0xFFFF'FFFF);
  if (!flags_token.text.empty() && !flags) {
    return bad(flags_token.column, "expected the flags (hex, e.g. 1000 for an FD frame)");
  }
  const bool fd = !flags || (*flags & kFdFlagEdl) != 0;
  const bool remote = flags && (*flags & kFdFlagRemote) != 0;
  const auto dlc_value = static_cast<std::uint8_t>(*dlc);
  if (fd) {
    if (remote) return bad(flags_token.column, "the flags mark an FD frame as a remote request");
    if (dlc_to_length(dlc_value, true) != *length) {
      return bad(length_token.column, "the data length is not the one the DLC gives");
    }
    f.frame.flags |= kFd;
    if (brs.text == "1") f.frame.flags |= kBrs;
    if (esi.text == "1") f.frame.flags |= kEsi;
    f.frame.length = static_cast<std::uint8_t>(*length);
    return with_frame(f);
  }
  if (brs.text == "1" || esi.text == "1") {
    return bad(brs.column, "BRS or ESI on a classic frame (its flags lack EDL 1000)");
  }
  const std::size_t classic_length = dlc_to_length(dlc_value, false);
  if (*length != (remote ? 0 : classic_length)) {
    return bad(length_token.column, "the data length is not the one the DLC gives");
  }
  if (remote) f.frame.flags |= kRemote;
  f.frame.length = static_cast<std::uint8_t>(classic_length);
  return with_frame(f);
}

}  // namespace hil::io::can
