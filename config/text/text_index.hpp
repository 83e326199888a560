#pragma once
// A config file's text with its line starts: converts the positions protobuf's tokenizer
// reports (0-based line, 0-based column with tabs expanded to multiples of 8) into the
// 1-based line:column (in bytes) that editors and compilers use.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hil::config {

/// 1-based line and byte column; {0, 0} when unknown.
struct TextPosition {
  int line = 0;
  int column = 0;
  friend bool operator==(TextPosition, TextPosition) = default;
};

/// Immutable after construction; const methods are thread-safe.
class TextIndex {
 public:
  explicit TextIndex(std::string text);

  [[nodiscard]] std::string_view text() const noexcept { return text_; }

  /// Byte offset of a tokenizer position (clamped to its line); npos when the line is
  /// negative (protobuf's "no location") or past the end.
  [[nodiscard]] std::size_t offset_of(int line, int column) const noexcept;
  /// Editor position of a byte offset (clamped to the end of the text).
  [[nodiscard]] TextPosition position_of(std::size_t offset) const noexcept;
  /// Editor position of a tokenizer position.
  [[nodiscard]] TextPosition from_tokenizer(int line, int column) const noexcept;

  /// For a field whose name starts at the tokenizer position: the position of its value
  /// (`period_us: 20` → the `2`), or of the name itself when the value is a `{ ... }` block.
  [[nodiscard]] TextPosition value_of_field_at(int line, int column) const noexcept;

 private:
  std::string text_;
  std::vector<std::size_t> line_starts_;  // byte offset of each line's first character
};

}  // namespace hil::config
