#pragma once
// CSV text as hilsim writes it (`hilsim export`, `hilsim sweep collect`): RFC 4180 fields.
// Thread-safety: pure functions.

#include <string>

namespace hil::session {

/// A CSV field: quoted when it holds a comma, quote or line break (RFC 4180).
inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace hil::session
