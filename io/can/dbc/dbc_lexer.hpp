#pragma once
// Tokens of a DBC file with their line and column: identifiers (also keywords such as BO_ and
// multiplexer indicators such as m3M), unsigned numbers (signs are separate punctuation so that
// "@1+" and "3-5" lex cleanly; the parser joins "-" "12"), double-quoted strings (with \" and
// \\ escapes, may span lines) and single-character punctuation. "//" starts a line comment.
// Setup phase only (allocates, throws DbcError). Thread-safety: none needed (pure function).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can::dbc {

enum class TokenKind : std::uint8_t { kIdentifier, kNumber, kString, kPunctuation, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;  ///< as in the file; a string includes its quotes
  SourceLocation location;
  bool first_on_line = false;  ///< no other token before it on its line

  [[nodiscard]] bool is(TokenKind k, std::string_view t) const noexcept {
    return kind == k && text == t;
  }
  [[nodiscard]] bool is_punct(char c) const noexcept {
    return kind == TokenKind::kPunctuation && text.size() == 1 && text[0] == c;
  }
};

/// Splits `text` into tokens ending with one kEnd token. Throws DbcError
/// ("file:line:column: ...") on an unterminated string or a character no DBC token starts with.
[[nodiscard]] std::vector<Token> tokenize_dbc(std::string_view text, std::string_view file_name);

/// The content of a string token: quotes removed, \" and \\ unescaped.
[[nodiscard]] std::string unquote(const Token& string_token);

/// How a token is shown in "got ..." messages: 'text' (shortened, non-printables as '?'),
/// a string "…", or "the end of the file".
[[nodiscard]] std::string describe(const Token& token);

/// "file:line:column: message".
[[nodiscard]] std::string located(std::string_view file_name, SourceLocation at,
                                  std::string_view message);

}  // namespace hil::io::can::dbc
