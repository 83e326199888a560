#pragma once
// An error in a configuration file, as a value: where it is, which field, what is wrong and
// what was expected.

#include <string>
#include <vector>

namespace hil::config {

struct ConfigError {
  std::string file;     ///< as the user named it; empty when validating without files
  int line = 0;         ///< 1-based; 0 when the error concerns the whole file
  int column = 0;       ///< 1-based, in bytes (a tab counts as one); 0 when unknown
  std::string field;    ///< dotted path, e.g. "executive.catch_up.max_ticks"; may be empty
  std::string message;  ///< what is wrong and what was expected

  /// "rig.pbtxt:3:14: executive.period_us: 20 is out of range; expected 50..100000
  /// (microseconds)". Parts that are unknown are left out. Thread-safe.
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const ConfigError&, const ConfigError&) = default;
};

using ConfigErrors = std::vector<ConfigError>;

}  // namespace hil::config
