#include "tools/session/config_errors.hpp"

#include <fmt/format.h>

namespace hil::session {

void print_config_errors(const config::ConfigErrors& errors, std::string_view what) {
  for (const config::ConfigError& e : errors) fmt::print(stderr, "{}\n", e.to_string());
  fmt::print(stderr, "FAILED {}: {} error{}\n", what, errors.size(), errors.size() == 1 ? "" : "s");
}

void print_config_warnings(const config::RigSpec& settings) {
  for (const io::can::CanBusSpec& bus : settings.can) {
    for (const std::string& w : bus.database.warnings) fmt::print(stderr, "{}\n", w);
  }
}

}  // namespace hil::session
