#include "io/can/dbc/dbc_lexer.hpp"

#include <fmt/format.h>

namespace hil::io::can::dbc {
namespace {

constexpr std::string_view kPunctuation = ":;|@+-()[],";
constexpr std::size_t kMaxShown = 40;

bool is_alpha(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
bool is_hex(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view file_name, bool lenient)
      : text_(text), file_(file_name), lenient_(lenient) {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // UTF-8 byte order mark
  }

  std::vector<Token> run() {
    std::vector<Token> tokens;
    bool line_has_token = false;
    std::uint32_t token_line = 0;
    while (skip_blanks_and_comments()) {
      Token t;
      t.location = {line_, column()};
      const std::size_t begin = pos_;
      t.kind = scan();
      t.text = text_.substr(begin, pos_ - begin);
      if (t.location.line != token_line) line_has_token = false;
      t.first_on_line = !line_has_token;
      line_has_token = true;
      token_line = line_;  // a string spanning lines ends on a later line
      tokens.push_back(t);
    }
    Token end;
    end.location = {line_, column()};
    end.first_on_line = true;
    tokens.push_back(end);
    return tokens;
  }

 private:
  [[nodiscard]] std::uint32_t column() const noexcept {
    return static_cast<std::uint32_t>(pos_ - line_start_ + 1);
  }

  /// Skips blanks, newlines and // comments; false at the end of the text.
  bool skip_blanks_and_comments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++pos_;
        ++line_;
        line_start_ = pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return true;
      }
    }
    return false;
  }

  TokenKind scan() {
    const char c = text_[pos_];
    if (is_alpha(c)) {
      while (pos_ < text_.size() && (is_alpha(text_[pos_]) || is_digit(text_[pos_]))) ++pos_;
      return TokenKind::identifier;
    }
    if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
      return scan_number();
    }
    if (c == '"') return scan_string();
    if (kPunctuation.find(c) != std::string_view::npos || lenient_) {
      ++pos_;
      return TokenKind::punctuation;
    }
    const bool printable = c > ' ' && c <= '~';
    throw DbcError(located(
        file_, {line_, column()},
        printable ? fmt::format("unexpected character '{}'", c)
                  : fmt::format("unexpected byte 0x{:02X}", static_cast<unsigned char>(c))));
  }

  /// A number, or an identifier when a word of letters, digits and '_' starting with a digit
  /// is no number ("2017_5", "0_COUNTER", "1ECU"; "1e5" and "0x1F" stay numbers).
  TokenKind scan_number() {
    const auto at = [&](std::size_t i) { return i < text_.size() ? text_[i] : '\0'; };
    const std::size_t begin = pos_;
    bool plain_word = true;  // only letters and digits so far: may still become an identifier
    if (at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X') && is_hex(at(pos_ + 2))) {
      pos_ += 2;
      while (is_hex(at(pos_))) ++pos_;
    } else {
      while (is_digit(at(pos_))) ++pos_;
      if (at(pos_) == '.') {
        plain_word = false;
        ++pos_;
        while (is_digit(at(pos_))) ++pos_;
      }
      if (at(pos_) == 'e' || at(pos_) == 'E') {
        std::size_t e = pos_ + 1;
        if (at(e) == '+' || at(e) == '-') {
          plain_word = false;
          ++e;
        }
        if (is_digit(at(e))) {
          pos_ = e;
          while (is_digit(at(pos_))) ++pos_;
        }
      }
    }
    if (!plain_word || !(is_alpha(at(pos_)) || is_digit(at(pos_)))) return TokenKind::number;
    pos_ = begin;
    while (is_alpha(at(pos_)) || is_digit(at(pos_))) ++pos_;
    return TokenKind::identifier;
  }

  TokenKind scan_string() {
    const SourceLocation start{line_, column()};
    const std::size_t begin = pos_;
    const std::size_t begin_line_start = line_start_;
    const std::uint32_t begin_line = line_;
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return TokenKind::string;
      if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\')) {
        ++pos_;
      } else if (c == '\n') {
        ++line_;
        line_start_ = pos_;
      }
    }
    if (!lenient_) {
      throw DbcError(located(file_, start, "string not terminated: expected a closing '\"'"));
    }
    pos_ = begin + 1;  // the lone '"', then the rest of its line as tokens
    line_ = begin_line;
    line_start_ = begin_line_start;
    return TokenKind::punctuation;
  }

  std::string_view text_;
  std::string_view file_;
  bool lenient_ = false;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
};

}  // namespace

std::vector<Token> tokenize_dbc(std::string_view text, std::string_view file_name, bool lenient) {
  return Lexer(text, file_name, lenient).run();
}

std::string unquote(const Token& string_token) {
  std::string_view body = string_token.text;
  if (body.size() >= 2) body = body.substr(1, body.size() - 2);
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size() && (body[i + 1] == '"' || body[i + 1] == '\\')) {
      ++i;
    }
    out += body[i];
  }
  return out;
}

std::string describe(const Token& token) {
  if (token.kind == TokenKind::end) return "the end of the file";
  std::string shown;
  for (const char c : token.text.substr(0, kMaxShown)) {
    shown += (c >= ' ' && c <= '~') ? c : '?';
  }
  if (token.text.size() > kMaxShown) shown += "...";
  if (token.kind == TokenKind::string) return "a string " + shown;
  return "'" + shown + "'";
}

std::string located(std::string_view file_name, SourceLocation at, std::string_view message) {
  return fmt::format("{}:{}:{}: {}", file_name, at.line, at.column, message);
}

std::string as_warning(std::string_view error, std::string_view file_name,
                       std::string_view consequence) {
  std::size_t i = file_name.size() + 1;
  bool has_location = error.starts_with(file_name) && error.size() > i && error[i - 1] == ':';
  for (int field = 0; field < 2 && has_location; ++field) {
    const std::size_t start = i;
    while (i < error.size() && is_digit(error[i])) ++i;
    has_location = i > start && i < error.size() && error[i] == ':';
    ++i;
  }
  has_location = has_location && i < error.size() && error[i] == ' ';
  if (!has_location) return fmt::format("{}: warning: {}; {}", file_name, error, consequence);
  return fmt::format("{} warning: {}; {}", error.substr(0, i), error.substr(i + 1), consequence);
}

}  // namespace hil::io::can::dbc
