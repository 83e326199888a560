#include "config/text/text_index.hpp"

#include <algorithm>
#include <utility>

namespace hil::config {

namespace {

constexpr int kTokenizerTabWidth = 8;  // io::Tokenizer advances a tab to the next multiple

[[nodiscard]] bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Skips whitespace and `#` comments, the way the text-format tokenizer does.
[[nodiscard]] std::size_t skip_blank(std::string_view text, std::size_t i) noexcept {
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

}  // namespace

TextIndex::TextIndex(std::string text) : text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

std::size_t TextIndex::offset_of(int line, int column) const noexcept {
  if (line < 0 || static_cast<std::size_t>(line) >= line_starts_.size()) {
    return std::string_view::npos;
  }
  std::size_t i = line_starts_[static_cast<std::size_t>(line)];
  int expanded = 0;
  while (i < text_.size() && text_[i] != '\n' && expanded < column) {
    expanded = text_[i] == '\t' ? expanded + kTokenizerTabWidth - expanded % kTokenizerTabWidth
                                : expanded + 1;
    ++i;
  }
  return i;
}

TextPosition TextIndex::position_of(std::size_t offset) const noexcept {
  offset = std::min(offset, text_.size());
  const auto next_line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto line = static_cast<std::size_t>(next_line - line_starts_.begin()) - 1;
  return {static_cast<int>(line) + 1, static_cast<int>(offset - line_starts_[line]) + 1};
}

TextPosition TextIndex::from_tokenizer(int line, int column) const noexcept {
  const std::size_t offset = offset_of(line, column);
  return offset == std::string_view::npos ? TextPosition{} : position_of(offset);
}

TextPosition TextIndex::value_of_field_at(int line, int column) const noexcept {
  const std::size_t name = offset_of(line, column);
  if (name == std::string_view::npos) return {};
  std::size_t i = name;
  while (i < text_.size() && is_identifier_char(text_[i])) ++i;
  i = skip_blank(text_, i);
  if (i < text_.size() && text_[i] == ':') i = skip_blank(text_, i + 1);
  if (i >= text_.size() || text_[i] == '{' || text_[i] == '<') return position_of(name);
  return position_of(i);
}

}  // namespace hil::config
