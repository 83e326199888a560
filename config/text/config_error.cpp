#include "config/text/config_error.hpp"

#include <fmt/format.h>

namespace hil::config {

std::string ConfigError::to_string() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += fmt::format(":{}", line);
    if (line > 0 && column > 0) out += fmt::format(":{}", column);
    out += ": ";
  }
  if (!field.empty()) out += field + ": ";
  out += message;
  return out;
}

}  // namespace hil::config
