#pragma once
// Private to the DBC reader: the recursive-descent parser over dbc_lexer tokens. Its
// statements live in dbc_parser.cpp (structure: VERSION … BO_/SG_), dbc_parser_sections.cpp
// (CM_, VAL_, VAL_TABLE_, SIG_VALTYPE_, SG_MUL_VAL_, BO_TX_BU_) and dbc_attributes.cpp (BA_*).

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/can/dbc/dbc_lexer.hpp"
#include "io/can/dbc/dbc_model.hpp"
#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc::detail {

/// BO_ id of Vector's pseudo-message that holds signals not placed in any message.
inline constexpr std::uint32_t kIndependentSignalsId = 0xC000'0000;
inline constexpr std::uint32_t kExtendedIdBit = 0x8000'0000;

class Parser {
 public:
  Parser(std::string_view text, std::string_view file_name, const DbcReadSpec& options);
  /// Parses every statement; the semantic checks run afterwards (dbc_checks.hpp).
  Database parse();

 private:
  // Tokens.
  [[nodiscard]] const Token& peek(std::size_t ahead = 0) const noexcept;
  const Token& take() noexcept;
  bool take_if_punct(char c) noexcept;
  [[noreturn]] void fail(SourceLocation at, std::string_view message) const;
  /// Throws "<context>: expected <what>, got <token>" at the token.
  [[noreturn]] void expected(std::string_view context, std::string_view what,
                             const Token& got) const;
  void expect_punct(char c, std::string_view context, std::string_view what);
  void expect_semicolon(std::string_view context);
  std::string expect_identifier(std::string_view context, std::string_view what);
  /// Warns (once per name) when an identifier starts with a digit, as production files write.
  void note_digit_name(const Token& name, std::string_view context);
  std::string expect_string(std::string_view context, std::string_view what);
  /// An unsigned integer (decimal or 0x hex) no larger than `max`.
  std::uint64_t expect_unsigned(std::string_view context, std::string_view what, std::uint64_t max);
  /// A number with optional sign.
  double expect_number(std::string_view context, std::string_view what);
  /// An integer with optional sign (an unsigned value above INT64_MAX keeps its bit pattern).
  std::int64_t expect_integer(std::string_view context, std::string_view what);
  void warn(SourceLocation at, std::string_view message);
  /// Something the field writes outside the grammar that changes what a frame means: a
  /// warning "<what>: <assumed>" when deviations are accepted, else an error "<what>" that says
  /// how to fix it (`fix`) and that a bus's `dbc_lenient: true` accepts it.
  void deviation(SourceLocation at, std::string_view what, std::string_view assumed,
                 std::string_view fix);
  /// In lenient mode: `error` (a DbcError's what()) as a warning that `skipped` was skipped.
  void warn_skipped(const DbcError& error, std::string_view skipped);
  /// Moves to the next statement keyword that starts a line (past SG_ lines unless `to_signal`),
  /// at least one token on.
  void resync(std::size_t failed_at, bool to_signal);

  // Structure (dbc_parser.cpp).
  void statement();
  void parse_version();
  void parse_new_symbols();
  void parse_bit_timing();
  void parse_nodes();
  void parse_message();
  void parse_signal(Message& message, std::string_view message_context);
  void parse_mux_indicator(Signal& signal, const Token& token, std::string_view context);
  void parse_layout(Signal& signal, std::string_view context);
  void parse_scaling(Signal& signal, std::string_view context);
  void parse_receivers(Signal& signal, std::uint32_t line, std::string_view context);
  void skip_statement(std::string_view keyword);

  // Sections (dbc_parser_sections.cpp).
  void parse_value_table();
  void parse_transmitters();
  void parse_comment();
  void parse_value_descriptions();
  void parse_signal_value_type();
  void parse_mux_values();
  std::vector<ValueDescription> parse_value_list(std::string_view context);

  // Attributes (dbc_attributes.cpp).
  void parse_attribute_definition();
  void parse_attribute_default();
  void parse_attribute();
  AttributeValue parse_attribute_value(const AttributeDefinition* def, std::string_view context);

  // Lookups: nullptr (after a warning) when a statement refers to something not defined.
  Message* message_for(const Token& id_token, std::uint64_t raw_id, std::string_view context);
  Signal* signal_for(Message* message, const Token& name_token, std::string_view context);
  Node* node_for(const Token& name_token, std::string_view context);
  AttributeDefinition* definition_for(std::string_view name);

  DbcReadSpec options_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::string file_;
  std::vector<std::string> digit_names_;  ///< identifiers starting with a digit, warned once
  Database db_;
  Message independent_signals_;  ///< VECTOR__INDEPENDENT_SIG_MSG, parsed and dropped
  std::unordered_map<std::uint32_t, std::size_t> message_by_raw_id_;
};

/// True for the DBC keywords that start a statement (BO_, SG_, CM_, ...).
[[nodiscard]] bool is_keyword(std::string_view identifier) noexcept;

}  // namespace hil::io::can::dbc::detail
