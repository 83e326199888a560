#pragma once
// Reads the nesting of a text-format file token by token, without parsing it: enough to name
// the field a parse error belongs to, and to refuse nesting deep enough to exhaust the stack.
// Tolerates any input, since it runs on text the parser rejected.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hil::config {

/// A position as protobuf's tokenizer reports it: 0-based line, 0-based column with tabs
/// expanded (see TextIndex).
struct TokenPosition {
  int line = 0;
  int column = 0;
  friend auto operator<=>(TokenPosition, TokenPosition) = default;
};

/// A field named by its dotted path and a position in it.
struct FieldMention {
  std::string path;                 ///< "executive.period_us"; "" at the top level
  std::optional<TokenPosition> at;  ///< where its name (or value) starts, if known
};

/// What the parser was reading at some position of a file.
struct FieldAtPosition {
  FieldMention current;  ///< the field being read (`at`: its name); else the enclosing block
  std::optional<FieldMention> just_read;  ///< the field whose value (`at`) ended just before
};

/// The `{`, `<` or `[` that first opens a level deeper than `max_depth`, if any.
/// Thread-safe.
[[nodiscard]] std::optional<TokenPosition> find_nesting_deeper_than(std::string_view text,
                                                                    std::size_t max_depth);

/// For each of `positions` (in any order), the field whose name or value the parser was
/// reading there. Best effort: a path element it cannot name is "?". Thread-safe.
[[nodiscard]] std::vector<FieldAtPosition> fields_at(std::string_view text,
                                                     std::span<const TokenPosition> positions);

}  // namespace hil::config
