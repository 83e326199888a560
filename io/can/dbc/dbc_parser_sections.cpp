// VAL_TABLE_, BO_TX_BU_, CM_, VAL_, SIG_VALTYPE_ and SG_MUL_VAL_.

#include <fmt/format.h>

#include <algorithm>

#include "io/can/dbc/dbc_parser_impl.hpp"

namespace hil::io::can::dbc::detail {
namespace {

constexpr std::uint32_t kFloat32Bits = 32;
constexpr std::uint32_t kFloat64Bits = 64;

bool starts_number(const Token& t) noexcept {
  return t.kind == TokenKind::number || t.is_punct('-') || t.is_punct('+');
}

}  // namespace

std::vector<ValueDescription> Parser::parse_value_list(std::string_view context) {
  std::vector<ValueDescription> values;
  while (starts_number(peek())) {
    ValueDescription d;
    d.value = expect_integer(context, "a raw value (integer)");
    d.text = expect_string(context, "the description string after the value");
    values.push_back(std::move(d));
  }
  if (!peek().is_punct(';')) expected(context, "a raw value or ';' at the end", peek());
  take();
  std::stable_sort(
      values.begin(), values.end(),
      [](const ValueDescription& a, const ValueDescription& b) { return a.value < b.value; });
  return values;
}

void Parser::parse_value_table() {
  take();
  ValueTable table;
  table.name = expect_identifier("VAL_TABLE_", "the value table name");
  table.values = parse_value_list(fmt::format("VAL_TABLE_ '{}'", table.name));
  db_.value_tables.push_back(std::move(table));
}

void Parser::parse_transmitters() {
  take();
  const Token& id_token = peek();
  const std::uint64_t raw_id = expect_unsigned("BO_TX_BU_", "the message id", UINT32_MAX);
  Message* message = message_for(id_token, raw_id, "BO_TX_BU_");
  expect_punct(':', "BO_TX_BU_", "':' after the message id");
  std::vector<std::string> nodes;
  while (!take_if_punct(';')) {
    if (!nodes.empty()) expect_punct(',', "BO_TX_BU_", "',' between nodes or ';'");
    nodes.push_back(expect_identifier("BO_TX_BU_", "a transmitting node"));
  }
  if (message != nullptr) message->transmitters = std::move(nodes);
}

void Parser::parse_comment() {
  take();
  const Token& kind = peek();
  constexpr std::string_view kWhat = "a comment string, or BU_, BO_, SG_ or EV_ and its object";
  if (kind.kind == TokenKind::string) {
    db_.comment = unquote(take());
  } else if (kind.is(TokenKind::identifier, "BU_")) {
    take();
    const Token& name = peek();
    (void)expect_identifier("CM_ BU_", "the node name");
    std::string text = expect_string("CM_ BU_", "the comment string after the node name");
    if (Node* node = node_for(name, "CM_ BU_")) node->comment = std::move(text);
  } else if (kind.is(TokenKind::identifier, "BO_")) {
    take();
    const Token& id_token = peek();
    const std::uint64_t raw_id = expect_unsigned("CM_ BO_", "the message id", UINT32_MAX);
    std::string text = expect_string("CM_ BO_", "the comment string after the message id");
    if (Message* m = message_for(id_token, raw_id, "CM_ BO_")) m->comment = std::move(text);
  } else if (kind.is(TokenKind::identifier, "SG_")) {
    take();
    const Token& id_token = peek();
    const std::uint64_t raw_id = expect_unsigned("CM_ SG_", "the message id", UINT32_MAX);
    const Token& name = peek();
    (void)expect_identifier("CM_ SG_", "the signal name after the message id");
    std::string text = expect_string("CM_ SG_", "the comment string after the signal name");
    Message* m = message_for(id_token, raw_id, "CM_ SG_");
    if (Signal* s = signal_for(m, name, "CM_ SG_")) s->comment = std::move(text);
  } else if (kind.is(TokenKind::identifier, "EV_")) {
    take();
    (void)expect_identifier("CM_ EV_", "the environment variable name");
    (void)expect_string("CM_ EV_", "the comment string after the variable name");
  } else {
    expected("CM_", kWhat, kind);
  }
  const Token& end = peek();
  if (!end.is_punct(';') && end.first_on_line &&
      (end.kind == TokenKind::end || (end.kind == TokenKind::identifier && is_keyword(end.text)))) {
    warn(end.location,
         fmt::format("CM_ at line {}: no ';' at its end; the comment ends before "
                     "this {}",
                     kind.location.line, end.kind == TokenKind::end ? "end of file" : "statement"));
    return;
  }
  expect_semicolon("CM_");
}

void Parser::parse_value_descriptions() {
  take();
  if (peek().kind == TokenKind::identifier) {  // VAL_ of an environment variable
    const std::string name = std::string(take().text);
    (void)parse_value_list(fmt::format("VAL_ '{}'", name));
    return;
  }
  const Token& id_token = peek();
  const std::uint64_t raw_id =
      expect_unsigned("VAL_", "the message id (or an environment variable name)", UINT32_MAX);
  const Token& name = peek();
  const std::string signal_name = expect_identifier("VAL_", "the signal name after the message id");
  std::vector<ValueDescription> values = parse_value_list(fmt::format("VAL_ '{}'", signal_name));
  Message* m = message_for(id_token, raw_id, "VAL_");
  if (Signal* s = signal_for(m, name, "VAL_")) s->value_descriptions = std::move(values);
}

void Parser::parse_signal_value_type() {
  take();
  const Token& id_token = peek();
  const std::uint64_t raw_id = expect_unsigned("SIG_VALTYPE_", "the message id", UINT32_MAX);
  const Token& name = peek();
  const std::string signal_name = expect_identifier("SIG_VALTYPE_", "the signal name");
  const std::string context = fmt::format("SIG_VALTYPE_ '{}'", signal_name);
  take_if_punct(':');
  const Token& type_token = peek();
  const std::uint64_t type = expect_unsigned(
      context, "the value type 0 (integer), 1 (IEEE float32) or 2 (IEEE float64)", 2);
  expect_semicolon(context);
  Signal* s = signal_for(message_for(id_token, raw_id, "SIG_VALTYPE_"), name, "SIG_VALTYPE_");
  if (s == nullptr) return;
  const std::uint32_t bits = type == 1 ? kFloat32Bits : kFloat64Bits;
  if (type != 0 && s->length != bits) {
    fail(type_token.location,
         fmt::format("{}: type {} (IEEE float{}) needs a {}-bit signal; its SG_ at line {} has {} "
                     "bits",
                     context, type, bits, bits, s->location.line, s->length));
  }
  s->value_type =
      type == 0 ? ValueType::integer : (type == 1 ? ValueType::float32 : ValueType::float64);
}

void Parser::parse_mux_values() {
  const Token& keyword = take();
  const Token& id_token = peek();
  const std::uint64_t raw_id = expect_unsigned("SG_MUL_VAL_", "the message id", UINT32_MAX);
  const Token& name = peek();
  const std::string signal_name = expect_identifier("SG_MUL_VAL_", "the signal name");
  const std::string context = fmt::format("SG_MUL_VAL_ '{}'", signal_name);
  const Token& mux_name = peek();
  const std::string multiplexor = expect_identifier(context, "the multiplexor signal name");
  std::vector<MuxRange> ranges;
  do {
    const Token& low_token = peek();
    MuxRange r;
    r.low = expect_unsigned(context, "a multiplexor value range LOW-HIGH, e.g. 3-5", UINT64_MAX);
    expect_punct('-', context, "'-' between the low and high value of the range");
    r.high = expect_unsigned(context, "the high value of the range", UINT64_MAX);
    if (r.low > r.high) {
      fail(low_token.location,
           fmt::format("{}: range {}-{} is empty (low > high)", context, r.low, r.high));
    }
    ranges.push_back(r);
  } while (take_if_punct(','));
  expect_semicolon(context);

  Message* m = message_for(id_token, raw_id, "SG_MUL_VAL_");
  Signal* s = signal_for(m, name, "SG_MUL_VAL_");
  if (s == nullptr || m == &independent_signals_) return;
  const Signal* mux = m->find_signal(multiplexor);
  if (mux == nullptr || !mux->is_multiplexor) {
    fail(mux_name.location,
         fmt::format("{}: '{}' is not a multiplexor of message '{}' (expected a signal marked M "
                     "or m<value>M)",
                     context, multiplexor, m->name));
  }
  if (!s->mux_indicator) {
    fail(name.location, fmt::format("{}: signal '{}' has no m<value> multiplexer indicator in its "
                                    "SG_ at line {}",
                                    context, signal_name, s->location.line));
  }
  if (!s->multiplexor.empty() && s->multiplexor != multiplexor) {
    fail(keyword.location, fmt::format("{}: signal '{}' already depends on multiplexor '{}'",
                                       context, signal_name, s->multiplexor));
  }
  s->multiplexor = multiplexor;
  s->mux_ranges.insert(s->mux_ranges.end(), ranges.begin(), ranges.end());
}

}  // namespace hil::io::can::dbc::detail
