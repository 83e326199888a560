// BA_DEF_, BA_DEF_DEF_ and BA_: attribute definitions, defaults and values, checked against
// their definition (type, ENUM names, INT/HEX/FLOAT range).

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "io/can/dbc/dbc_parser_impl.hpp"

namespace hil::io::can::dbc::detail {
namespace {

template <typename T>
struct Keyword {
  std::string_view text;
  T value;
};
constexpr std::array<Keyword<AttributeObject>, 4> kObjectKeywords{
    {{"BU_", AttributeObject::node},
     {"BO_", AttributeObject::message},
     {"SG_", AttributeObject::signal},
     {"EV_", AttributeObject::environment}}};
constexpr std::array<Keyword<AttributeType>, 5> kTypeKeywords{
    {{"INT", AttributeType::integer},
     {"HEX", AttributeType::hex},
     {"FLOAT", AttributeType::floating},
     {"STRING", AttributeType::string},
     {"ENUM", AttributeType::enumeration}}};

/// The value of the identifier token `t` in `table`, or nullptr.
template <typename T, std::size_t N>
const T* lookup(const std::array<Keyword<T>, N>& table, const Token& t) {
  if (t.kind != TokenKind::identifier) return nullptr;
  const auto* const it = std::find_if(table.begin(), table.end(),
                                      [&](const Keyword<T>& k) { return k.text == t.text; });
  return it != table.end() ? &it->value : nullptr;
}

std::string enum_list(const AttributeDefinition& def) {
  std::string out;
  for (const std::string& v : def.enum_values) out += (out.empty() ? "\"" : ", \"") + v + "\"";
  return out;
}

}  // namespace

AttributeDefinition* Parser::definition_for(std::string_view name) {
  const auto it = std::find_if(db_.attribute_definitions.begin(), db_.attribute_definitions.end(),
                               [&](const AttributeDefinition& d) { return d.name == name; });
  return it != db_.attribute_definitions.end() ? &*it : nullptr;
}

void Parser::parse_attribute_definition() {
  take();
  AttributeDefinition def;
  def.location = peek().location;
  if (peek().kind == TokenKind::identifier) {
    const AttributeObject* object = lookup(kObjectKeywords, peek());
    if (object == nullptr) {
      expected("BA_DEF_", "BU_, BO_, SG_, EV_ or the attribute name string", peek());
    }
    def.object = *object;
    take();
  }
  def.name = expect_string("BA_DEF_", "the attribute name string");
  const std::string context = fmt::format("BA_DEF_ \"{}\"", def.name);
  const AttributeType* type = lookup(kTypeKeywords, peek());
  if (type == nullptr) expected(context, "the value type INT, HEX, FLOAT, STRING or ENUM", peek());
  take();
  def.type = *type;
  if (def.type == AttributeType::integer || def.type == AttributeType::hex ||
      def.type == AttributeType::floating) {
    def.minimum = expect_number(context, "the minimum value");
    def.maximum = expect_number(context, "the maximum value");
  } else if (def.type == AttributeType::enumeration) {
    while (peek().kind == TokenKind::string) {
      def.enum_values.push_back(unquote(take()));
      if (!take_if_punct(',')) break;
    }
  }
  expect_semicolon(context);
  if (AttributeDefinition* old = definition_for(def.name)) {
    warn(def.location, fmt::format("{}: defined again (first at line {}); the new definition "
                                   "wins",
                                   context, old->location.line));
    *old = std::move(def);
    return;
  }
  db_.attribute_definitions.push_back(std::move(def));
}

AttributeValue Parser::parse_attribute_value(const AttributeDefinition* def,
                                             std::string_view context) {
  const Token& t = peek();
  if (t.kind == TokenKind::string) {
    std::string text = unquote(take());
    if (def == nullptr || def->type == AttributeType::string) return text;
    if (def->type == AttributeType::enumeration) {
      if (std::find(def->enum_values.begin(), def->enum_values.end(), text) ==
          def->enum_values.end()) {
        fail(t.location,
             fmt::format("{}: expected one of {}, got \"{}\"", context, enum_list(*def), text));
      }
      return text;
    }
    expected(context, "a number (the attribute is INT, HEX or FLOAT)", t);
  }
  if (def != nullptr && def->type == AttributeType::string) {
    expected(context, "a string (the attribute is STRING)", t);
  }
  const double value = expect_number(context, "the attribute value");
  if (def == nullptr) {
    if (std::trunc(value) == value && std::abs(value) < 9e18)
      return static_cast<std::int64_t>(value);
    return value;
  }
  if (def->type == AttributeType::enumeration) {
    if (std::trunc(value) != value || value < 0 ||
        value >= static_cast<double>(def->enum_values.size())) {
      fail(t.location, fmt::format("{}: ENUM index {} is not in 0..{} ({})", context, value,
                                   def->enum_values.size() - 1, enum_list(*def)));
    }
    return def->enum_values[static_cast<std::size_t>(value)];
  }
  if ((def->minimum != 0.0 || def->maximum != 0.0) &&
      (value < def->minimum || value > def->maximum)) {
    warn(t.location, fmt::format("{}: value {} is outside the BA_DEF_ range [{}, {}]", context,
                                 value, def->minimum, def->maximum));
  }
  if (def->type == AttributeType::floating) return value;
  if (std::trunc(value) != value || std::abs(value) >= 9.2e18) {
    fail(t.location, fmt::format("{}: expected an integer (the attribute is {}), got {}", context,
                                 def->type == AttributeType::integer ? "INT" : "HEX", value));
  }
  return static_cast<std::int64_t>(value);
}

void Parser::parse_attribute_default() {
  take();
  const Token& name = peek();
  const std::string attribute = expect_string("BA_DEF_DEF_", "the attribute name string");
  const std::string context = fmt::format("BA_DEF_DEF_ \"{}\"", attribute);
  AttributeDefinition* def = definition_for(attribute);
  if (def == nullptr) warn(name.location, context + ": no BA_DEF_ defines this attribute");
  AttributeValue value = parse_attribute_value(def, context);
  expect_semicolon(context);
  if (def != nullptr) def->default_value = std::move(value);
}

void Parser::parse_attribute() {
  take();
  const Token& name = peek();
  const std::string attribute = expect_string("BA_", "the attribute name string");
  const std::string context = fmt::format("BA_ \"{}\"", attribute);
  const AttributeDefinition* def = definition_for(attribute);
  if (def == nullptr) warn(name.location, context + ": no BA_DEF_ defines this attribute");

  Attributes* target = &db_.attributes;
  AttributeObject object = AttributeObject::network;
  const Token& kind = peek();
  if (kind.is(TokenKind::identifier, "BU_")) {
    take();
    object = AttributeObject::node;
    const Token& node = peek();
    (void)expect_identifier(context, "the node name after BU_");
    Node* n = node_for(node, context);
    target = n != nullptr ? &n->attributes : nullptr;
  } else if (kind.is(TokenKind::identifier, "BO_")) {
    take();
    object = AttributeObject::message;
    const Token& id = peek();
    Message* m = message_for(id, expect_unsigned(context, "the message id", UINT32_MAX), context);
    target = m != nullptr ? &m->attributes : nullptr;
  } else if (kind.is(TokenKind::identifier, "SG_")) {
    take();
    object = AttributeObject::signal;
    const Token& id = peek();
    Message* m = message_for(id, expect_unsigned(context, "the message id", UINT32_MAX), context);
    const Token& signal = peek();
    (void)expect_identifier(context, "the signal name after the message id");
    Signal* s = signal_for(m, signal, context);
    target = s != nullptr ? &s->attributes : nullptr;
  } else if (kind.is(TokenKind::identifier, "EV_")) {
    take();
    object = AttributeObject::environment;
    (void)expect_identifier(context, "the environment variable name after EV_");
    target = nullptr;
  }
  if (def != nullptr && def->object != object) {
    warn(kind.location, context + ": the BA_DEF_ defines it for another kind of object");
  }
  AttributeValue value = parse_attribute_value(def, context);
  expect_semicolon(context);
  if (target != nullptr) (*target)[attribute] = std::move(value);
}

}  // namespace hil::io::can::dbc::detail
