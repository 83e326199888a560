#pragma once
// Tokens of a DBC file with their line and column: identifiers (also keywords such as BO_ and
// multiplexer indicators such as m3M; production files also start names with digits, e.g.
// "2017_5" or "0_COUNTER": a word of letters, digits and '_' that is no number is an
// identifier), unsigned numbers (signs are separate punctuation so that
// "@1+" and "3-5" lex cleanly; the parser joins "-" "12"), double-quoted strings (with \" and
// \\ escapes, may span lines) and single-character punctuation. "//" starts a line comment.
// Setup phase only (allocates, throws DbcError). Thread-safety: none needed (pure function).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can::dbc {

enum class TokenKind : std::uint8_t { identifier, number, string, punctuation, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string_view text;  ///< as in the file; a string includes its quotes
  SourceLocation location;
  bool first_on_line = false;  ///< no other token before it on its line

  [[nodiscard]] bool is(TokenKind k, std::string_view t) const noexcept {
    return kind == k && text == t;
  }
  [[nodiscard]] bool is_punct(char c) const noexcept {
    return kind == TokenKind::punctuation && text.size() == 1 && text[0] == c;
  }
};

/// Splits `text` into tokens ending with one end token. Throws DbcError
/// ("file:line:column: ...") on an unterminated string or a character no DBC token starts with
/// — unless `lenient`: then such a character (or the opening '"') becomes a punctuation token
/// of its own that no statement accepts, so the parser skips the statement around it.
[[nodiscard]] std::vector<Token> tokenize_dbc(std::string_view text, std::string_view file_name,
                                              bool lenient = false);

/// The content of a string token: quotes removed, \" and \\ unescaped.
[[nodiscard]] std::string unquote(const Token& string_token);

/// How a token is shown in "got ..." messages: 'text' (shortened, non-printables as '?'),
/// a string "…", or "the end of the file".
[[nodiscard]] std::string describe(const Token& token);

/// "file:line:column: message".
[[nodiscard]] std::string located(std::string_view file_name, SourceLocation at,
                                  std::string_view message);

/// A located error "file:line:column: message" as "file:line:column: warning: message;
/// <consequence>" (an error without the location gets the prefix "file: warning: ").
[[nodiscard]] std::string as_warning(std::string_view error, std::string_view file_name,
                                     std::string_view consequence);

}  // namespace hil::io::can::dbc
