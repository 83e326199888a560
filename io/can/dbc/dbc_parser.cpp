// The parser core: tokens, numbers, errors, statement dispatch, and the header statements
// (VERSION, NS_, BS_, BU_). Messages and signals: dbc_parser_message.cpp.

#include "io/can/dbc/dbc_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "io/can/dbc/dbc_checks.hpp"
#include "io/can/dbc/dbc_parser_impl.hpp"

namespace hil::io::can::dbc {
namespace detail {
namespace {

/// Statements read past to their ';' (not needed for frames).
constexpr std::array<std::string_view, 19> kSkippedKeywords{"EV_",
                                                            "ENVVAR_DATA_",
                                                            "EV_DATA_",
                                                            "SGTYPE_",
                                                            "SGTYPE_VAL_",
                                                            "BA_DEF_SGTYPE_",
                                                            "BA_SGTYPE_",
                                                            "SIG_TYPE_REF_",
                                                            "SIG_GROUP_",
                                                            "SIGTYPE_VALTYPE_",
                                                            "BA_DEF_REL_",
                                                            "BA_REL_",
                                                            "BA_DEF_DEF_REL_",
                                                            "BU_SG_REL_",
                                                            "BU_EV_REL_",
                                                            "BU_BO_REL_",
                                                            "CAT_DEF_",
                                                            "CAT_",
                                                            "FILTER"};

constexpr std::array<std::string_view, 15> kParsedKeywords{
    "VERSION",     "NS_", "BS_",       "BU_",          "VAL_TABLE_",
    "BO_",         "SG_", "BO_TX_BU_", "CM_",          "BA_DEF_",
    "BA_DEF_DEF_", "BA_", "VAL_",      "SIG_VALTYPE_", "SG_MUL_VAL_"};

bool is_skipped(std::string_view word) noexcept {
  return std::ranges::find(kSkippedKeywords, word) != kSkippedKeywords.end();
}

}  // namespace

bool is_keyword(std::string_view identifier) noexcept {
  return is_skipped(identifier) ||
         std::ranges::find(kParsedKeywords, identifier) != kParsedKeywords.end();
}

Parser::Parser(std::string_view text, std::string_view file_name, const DbcReadSpec& options)
    : options_(options), tokens_(tokenize_dbc(text, file_name, options.lenient)), file_(file_name) {
  options_.accept_deviations = options_.accept_deviations || options_.lenient;
  db_.file_name = file_;
}

const Token& Parser::peek(std::size_t ahead) const noexcept {
  return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}

const Token& Parser::take() noexcept {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::take_if_punct(char c) noexcept {
  if (!peek().is_punct(c)) return false;
  take();
  return true;
}

void Parser::fail(SourceLocation at, std::string_view message) const {
  throw DbcError(located(file_, at, message));
}

void Parser::expected(std::string_view context, std::string_view what, const Token& got) const {
  fail(got.location, fmt::format("{}{}expected {}, got {}", context, context.empty() ? "" : ": ",
                                 what, describe(got)));
}

void Parser::expect_punct(char c, std::string_view context, std::string_view what) {
  if (!take_if_punct(c)) expected(context, what, peek());
}

void Parser::expect_semicolon(std::string_view context) {
  expect_punct(';', context, "';' at the end of the statement");
}

std::string Parser::expect_identifier(std::string_view context, std::string_view what) {
  if (peek().kind != TokenKind::identifier) expected(context, what, peek());
  const Token& name = take();
  note_digit_name(name, context);
  return std::string(name.text);
}

void Parser::note_digit_name(const Token& name, std::string_view context) {
  if (name.text.front() < '0' || name.text.front() > '9' ||
      std::ranges::find(digit_names_, name.text) != digit_names_.end()) {
    return;
  }
  digit_names_.emplace_back(name.text);
  warn(name.location, fmt::format("{}: name '{}' starts with a digit (DBC names start with a "
                                  "letter or '_'); read as a name",
                                  context, name.text));
}

std::string Parser::expect_string(std::string_view context, std::string_view what) {
  if (peek().kind != TokenKind::string) expected(context, what, peek());
  return unquote(take());
}

std::uint64_t Parser::expect_unsigned(std::string_view context, std::string_view what,
                                      std::uint64_t max) {
  const Token& t = peek();
  if (t.kind != TokenKind::number) expected(context, what, t);
  std::string_view digits = t.text;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec == std::errc::result_out_of_range || (ec == std::errc{} && value > max)) {
    fail(t.location,
         fmt::format("{}: expected {}, got {} (at most {})", context, what, t.text, max));
  }
  if (ec != std::errc{} || end != digits.data() + digits.size()) expected(context, what, t);
  take();
  return value;
}

double Parser::expect_number(std::string_view context, std::string_view what) {
  const Token& first = peek();
  const bool negative = first.is_punct('-');
  if (negative || first.is_punct('+')) take();
  const Token& t = peek();
  if (t.kind != TokenKind::number) expected(context, what, negative ? first : t);
  double value = 0.0;
  if (t.text.starts_with("0x") || t.text.starts_with("0X")) {
    value = static_cast<double>(expect_unsigned(context, what, UINT64_MAX));
  } else {
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), value);
    if (ec != std::errc{} || end != t.text.data() + t.text.size() || !std::isfinite(value)) {
      fail(t.location,
           fmt::format("{}: expected {}, got {} (not a finite number)", context, what, t.text));
    }
    take();
  }
  return negative ? -value : value;
}

std::int64_t Parser::expect_integer(std::string_view context, std::string_view what) {
  const bool negative = peek().is_punct('-');
  if (negative || peek().is_punct('+')) take();
  constexpr auto kMaxMagnitude = static_cast<std::uint64_t>(INT64_MAX) + 1;
  const std::uint64_t magnitude =
      expect_unsigned(context, what, negative ? kMaxMagnitude : UINT64_MAX);
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

void Parser::warn(SourceLocation at, std::string_view message) {
  db_.warnings.push_back(located(file_, at, fmt::format("warning: {}", message)));
}

void Parser::deviation(SourceLocation at, std::string_view what, std::string_view assumed,
                       std::string_view fix) {
  if (options_.accept_deviations) return warn(at, fmt::format("{}: {}", what, assumed));
  fail(at, fmt::format("{}; a rig reads its DBC strictly: {}, or set dbc_lenient: true on the bus",
                       what, fix));
}

void Parser::warn_skipped(const DbcError& error, std::string_view skipped) {
  db_.warnings.push_back(as_warning(error.what(), file_, fmt::format("{} skipped", skipped)));
}

void Parser::resync(std::size_t failed_at, bool to_signal) {
  if (pos_ == failed_at) take();
  while (peek().kind != TokenKind::end) {
    const Token& t = peek();
    if (t.first_on_line && t.kind == TokenKind::identifier && is_keyword(t.text) &&
        (to_signal || t.text != "SG_")) {
      return;
    }
    take();
  }
}

Database Parser::parse() {
  while (peek().kind != TokenKind::end) {
    if (!options_.lenient) {
      statement();
      continue;
    }
    const std::size_t start = pos_;
    try {
      statement();
    } catch (const DbcError& e) {
      const Token& first = tokens_[start];
      warn_skipped(e,
                   first.kind == TokenKind::identifier && is_keyword(first.text)
                       ? fmt::format("the {} statement at line {}", first.text, first.location.line)
                       : std::string("everything up to the next statement"));
      resync(start, false);
    }
  }
  return std::move(db_);
}

void Parser::statement() {
  const Token& t = peek();
  if (t.kind != TokenKind::identifier || !is_keyword(t.text)) {
    expected("", "a DBC keyword (VERSION, BU_, BO_, SG_, CM_, BA_DEF_, BA_, VAL_, ...)", t);
  }
  const std::string_view k = t.text;
  if (k == "VERSION") return parse_version();
  if (k == "NS_") return parse_new_symbols();
  if (k == "BS_") return parse_bit_timing();
  if (k == "BU_") return parse_nodes();
  if (k == "VAL_TABLE_") return parse_value_table();
  if (k == "BO_") return parse_message();
  if (k == "SG_") fail(t.location, "SG_ outside a message: expected a BO_ line before it");
  if (k == "BO_TX_BU_") return parse_transmitters();
  if (k == "CM_") return parse_comment();
  if (k == "BA_DEF_") return parse_attribute_definition();
  if (k == "BA_DEF_DEF_") return parse_attribute_default();
  if (k == "BA_") return parse_attribute();
  if (k == "VAL_") return parse_value_descriptions();
  if (k == "SIG_VALTYPE_") return parse_signal_value_type();
  if (k == "SG_MUL_VAL_") return parse_mux_values();
  skip_statement(k);
}

void Parser::parse_version() {
  take();
  db_.version = expect_string("VERSION", "the version string, e.g. VERSION \"1.0\"");
}

void Parser::parse_new_symbols() {
  take();
  expect_punct(':', "NS_", "':' after NS_");
  // The list of symbol names ends where the bit timing (BS_), nodes or messages begin.
  while (peek().kind == TokenKind::identifier && peek().text != "BS_" && peek().text != "BU_" &&
         peek().text != "BO_") {
    take();
  }
}

void Parser::parse_bit_timing() {
  take();
  expect_punct(':', "BS_", "':' after BS_");
  if (peek().kind != TokenKind::number) return;
  (void)expect_unsigned("BS_", "the baud rate", UINT32_MAX);
  expect_punct(':', "BS_", "':' after the baud rate");
  (void)expect_unsigned("BS_", "BTR1", UINT32_MAX);
  expect_punct(',', "BS_", "',' between BTR1 and BTR2");
  (void)expect_unsigned("BS_", "BTR2", UINT32_MAX);
}

void Parser::parse_nodes() {
  take();
  expect_punct(':', "BU_", "':' after BU_");
  while (peek().kind == TokenKind::identifier && !is_keyword(peek().text)) {
    const Token& name = take();
    note_digit_name(name, "BU_");
    if (node_for(name, "") != nullptr) {
      warn(name.location, fmt::format("BU_: node '{}' is listed twice", name.text));
      continue;
    }
    db_.nodes.push_back({.name = std::string(name.text)});
  }
}

void Parser::skip_statement(std::string_view keyword) {
  const Token& start = take();
  while (!peek().is_punct(';')) {
    if (peek().kind == TokenKind::end) {
      expected(keyword,
               fmt::format("';' at the end of the {} statement started at line {}", keyword,
                           start.location.line),
               peek());
    }
    take();
  }
  take();
}

}  // namespace detail

Database parse_dbc(std::string_view text, std::string_view file_name, const DbcReadSpec& options) {
  Database db = detail::Parser(text, file_name, options).parse();
  check_database(db, options);
  return db;
}

Database load_dbc(const std::filesystem::path& path, const DbcReadSpec& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DbcError(fmt::format("{}: cannot open the DBC file", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw DbcError(fmt::format("{}: cannot read the DBC file", path.string()));
  return parse_dbc(text.str(), path.string(), options);
}

}  // namespace hil::io::can::dbc
