// BO_ and SG_ statements, and the lookups later statements use to refer to them.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "io/can/can_frame.hpp"
#include "io/can/dbc/dbc_parser_impl.hpp"

namespace hil::io::can::dbc::detail {
namespace {

constexpr std::uint32_t kMaxStartBit = 8 * kMaxFdLength - 1;
constexpr std::uint32_t kMaxSignalBits = 64;

}  // namespace

void Parser::parse_message() {
  const Token& keyword = take();
  const Token& id_token = peek();
  const auto raw_id = static_cast<std::uint32_t>(
      expect_unsigned("BO_", "the message id (decimal; bit 31 set for a 29-bit id)", UINT32_MAX));
  Message m;
  m.location = keyword.location;
  m.extended = (raw_id & kExtendedIdBit) != 0;
  m.id = raw_id & ~kExtendedIdBit;
  const bool independent = raw_id == kIndependentSignalsId;
  if (!m.extended && m.id > kMaxStandardId && m.id <= kMaxExtendedId) {
    deviation(id_token.location,
              fmt::format("BO_: id {} (0x{:X}) does not fit 11 bits and has no 0x80000000 flag",
                          raw_id, raw_id),
              fmt::format("read as the 29-bit id 0x{:08X}", raw_id),
              fmt::format("write a 29-bit id with bit 31 set ({})",
                          std::uint64_t{raw_id} + kExtendedIdBit));
    m.extended = true;
  }
  if (!independent && m.extended && m.id > kMaxExtendedId) {
    fail(id_token.location,
         fmt::format(
             "BO_: id {} (0x{:08X}) is no 29-bit id: with bit 31 set it is at most 0x9FFFFFFF",
             raw_id, raw_id));
  }
  if (!m.extended && m.id > kMaxStandardId) {
    fail(id_token.location,
         fmt::format("BO_: id {} (0x{:X}) fits neither 11 nor 29 bits (a 29-bit id is written "
                     "with bit 31 set: 0x80000000 + id)",
                     raw_id, raw_id));
  }
  m.name = expect_identifier("BO_", "the message name after the id");
  const std::string context = fmt::format("BO_ '{}'", m.name);
  expect_punct(':', context, "':' after the message name");
  m.length = static_cast<std::uint32_t>(
      expect_unsigned(context, "the message length in bytes (0-64)", kMaxFdLength));
  m.sender = expect_identifier(context, "the sending node (or Vector__XXX) after the length");

  if (independent) {
    independent_signals_ = std::move(m);
    while (peek().is(TokenKind::identifier, "SG_")) parse_signal(independent_signals_, context);
    return;
  }
  if (const Message* other = db_.find_message(m.id, m.extended)) {
    fail(id_token.location,
         fmt::format("{}: duplicate message id {}; BO_ '{}' at line {} has it already", context,
                     raw_id, other->name, other->location.line));
  }
  if (const Message* other = db_.find_message(m.name)) {
    fail(keyword.location,
         fmt::format("{}: duplicate message name; BO_ {} at line {} has it already", context,
                     other->id, other->location.line));
  }
  message_by_raw_id_[raw_id] = db_.messages.size();
  if (m.extended) message_by_raw_id_[m.id | kExtendedIdBit] = db_.messages.size();
  db_.messages.push_back(std::move(m));
  while (peek().is(TokenKind::identifier, "SG_")) {
    if (!options_.lenient) {
      parse_signal(db_.messages.back(), context);
      continue;
    }
    const std::size_t start = pos_;
    try {
      parse_signal(db_.messages.back(), context);
    } catch (const DbcError& e) {
      warn_skipped(
          e, fmt::format("the SG_ at line {} (in {})", tokens_[start].location.line, context));
      resync(start, true);
    }
  }
}

void Parser::parse_signal(Message& message, std::string_view message_context) {
  take();
  Signal s;
  s.location = peek().location;
  s.name = expect_identifier(message_context, "the signal name after SG_");
  const std::string context = fmt::format("SG_ '{}'", s.name);
  if (message.find_signal(s.name) != nullptr) {
    fail(s.location, fmt::format("{}: duplicate signal name in {}", context, message_context));
  }
  if (peek().kind == TokenKind::identifier) parse_mux_indicator(s, take(), context);
  expect_punct(':', context, "':' after the signal name (or its multiplexer indicator)");
  parse_layout(s, context);
  parse_scaling(s, context);
  const Token& unit = peek();
  s.unit = expect_string(context, "the unit string (\"\" for none) after the range");
  parse_receivers(s, unit.location.line, context);
  message.signals.push_back(std::move(s));
}

void Parser::parse_mux_indicator(Signal& signal, const Token& token, std::string_view context) {
  std::string_view text = token.text;
  const auto bad = [&] {
    expected(context, "the multiplexer indicator M, m<value> or m<value>M before ':'", token);
  };
  if (text == "M") {
    signal.is_multiplexor = true;
    return;
  }
  if (text == "m") {
    deviation(token.location,
              fmt::format("{}: multiplexer indicator 'm' without the multiplexor value", context),
              "read as an ordinary signal, in every frame whatever the multiplexor",
              "write m<value> (or nothing for an ordinary signal)");
    return;
  }
  if (text.size() < 2 || text.front() != 'm') bad();
  text.remove_prefix(1);
  if (text.back() == 'M') {
    signal.is_multiplexor = true;
    text.remove_suffix(1);
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) bad();
  signal.mux_indicator = value;
}

void Parser::parse_layout(Signal& signal, std::string_view context) {
  signal.start_bit = static_cast<std::uint32_t>(
      expect_unsigned(context, "the start bit (0-511) after ':'", kMaxStartBit));
  expect_punct('|', context, "'|' between the start bit and the bit length");
  const Token& length = peek();
  signal.length = static_cast<std::uint32_t>(
      expect_unsigned(context, "the bit length (1-64) after '|'", kMaxSignalBits));
  if (signal.length == 0)
    fail(length.location, fmt::format("{}: bit length 0; expected 1-64", context));

  const Token& at = peek();
  const Token& order = peek(1);
  const char* kOrderExpected = "'@0' or '@1' after the bit length";
  if (!at.is_punct('@')) expected(context, kOrderExpected, at);
  if (order.kind != TokenKind::number || (order.text != "0" && order.text != "1")) {
    fail(at.location, fmt::format("{}: expected {}, got '@{}'", context, kOrderExpected,
                                  order.kind == TokenKind::end ? "" : order.text));
  }
  take();
  signal.byte_order = take().text == "1" ? ByteOrder::little_endian : ByteOrder::big_endian;
  if (take_if_punct('-')) {
    signal.is_signed = true;
  } else if (!take_if_punct('+')) {
    expected(context, "'+' (unsigned) or '-' (signed) after the byte order", peek());
  }
}

void Parser::parse_scaling(Signal& signal, std::string_view context) {
  expect_punct('(', context, "'(' and the factor, e.g. (0.1,0)");
  const Token& factor = peek();
  signal.factor = expect_number(context, "the factor after '('");
  if (signal.factor == 0.0)
    fail(factor.location, fmt::format("{}: the factor must not be 0", context));
  expect_punct(',', context, "',' between the factor and the offset");
  signal.offset = expect_number(context, "the offset after ','");
  expect_punct(')', context, "')' after the offset");
  expect_punct('[', context, "'[' and the range, e.g. [0|100]");
  signal.minimum = expect_number(context, "the minimum after '['");
  expect_punct('|', context, "'|' between the minimum and the maximum");
  signal.maximum = expect_number(context, "the maximum after '|'");
  expect_punct(']', context, "']' after the maximum");
}

void Parser::parse_receivers(Signal& signal, std::uint32_t line, std::string_view context) {
  while (peek().kind != TokenKind::end && peek().location.line == line) {
    if (take_if_punct(',')) continue;
    signal.receivers.push_back(expect_identifier(context, "a receiving node after the unit"));
  }
}

Message* Parser::message_for(const Token& id_token, std::uint64_t raw_id,
                             std::string_view context) {
  if (raw_id == kIndependentSignalsId) return &independent_signals_;
  const auto it = message_by_raw_id_.find(static_cast<std::uint32_t>(raw_id));
  if (it != message_by_raw_id_.end()) return &db_.messages[it->second];
  warn(id_token.location,
       fmt::format("{}: no BO_ defines message id {}; statement ignored", context, raw_id));
  return nullptr;
}

Signal* Parser::signal_for(Message* message, const Token& name_token, std::string_view context) {
  if (message == nullptr) return nullptr;
  const auto it = std::find_if(message->signals.begin(), message->signals.end(),
                               [&](const Signal& s) { return s.name == name_token.text; });
  if (it != message->signals.end()) return &*it;
  if (message != &independent_signals_) {
    warn(name_token.location, fmt::format("{}: message '{}' has no signal '{}'; statement ignored",
                                          context, message->name, name_token.text));
  }
  return nullptr;
}

Node* Parser::node_for(const Token& name_token, std::string_view context) {
  const auto it = std::find_if(db_.nodes.begin(), db_.nodes.end(),
                               [&](const Node& n) { return n.name == name_token.text; });
  if (it != db_.nodes.end()) return &*it;
  if (!context.empty()) {
    warn(name_token.location,
         fmt::format("{}: no node '{}' in BU_; statement ignored", context, name_token.text));
  }
  return nullptr;
}

}  // namespace hil::io::can::dbc::detail
