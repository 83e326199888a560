#pragma once
// A config file's text before it is parsed, and the limits every parse applies.

#include <cstddef>
#include <string>

namespace hil::config {

/// A config text and the name errors give it (the file path as the user wrote it).
struct ConfigText {
  std::string name;
  std::string text;
};

/// Larger inputs are refused before parsing.
inline constexpr std::size_t kMaxConfigBytes = 16 * 1024 * 1024;
/// Deeper `{ }` nesting is refused before parsing: protobuf skips unknown fields recursively
/// with no depth limit, so a deeply nested unknown block would overflow the stack.
inline constexpr std::size_t kMaxConfigNesting = 32;
/// Errors reported per file before the rest are summarised in one line.
inline constexpr std::size_t kMaxErrorsPerFile = 50;

}  // namespace hil::config
