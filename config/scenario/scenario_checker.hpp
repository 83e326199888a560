#pragma once
// Checks of single values of a scenario, each problem located at its field through the
// scenario file's SourceMap (config/scenario/scenario_convert.cpp and scenario_gates.cpp).
// Setup phase; not thread-safe (appends to one error list).

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <string_view>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"

namespace hil::config {

/// Checks of single values, each problem located at its field.
class Checker {
 public:
  Checker(const config::SourceMap& sources, config::ConfigErrors& errors)
      : sources_(sources), errors_(errors) {}

  void fail(const std::string& field, std::string message) const {
    errors_.push_back(sources_.error(field, std::move(message)));
  }
  /// `value` finite and within [min, max] (`what` says the range in words).
  bool in_range(const std::string& field, double value, double min, double max,
                std::string_view what) const {
    if (std::isfinite(value) && value >= min && value <= max) return true;
    fail(field, fmt::format("{} is out of range; expected {}", value, what));
    return false;
  }
  bool positive(const std::string& field, double value) const {
    return in_range(field, value, std::nextafter(0.0, 1.0), 1e9, "> 0");
  }
  bool non_negative(const std::string& field, double value) const {
    return in_range(field, value, 0.0, 1e9, ">= 0");
  }
  bool finite(const std::string& field, double value) const {
    return in_range(field, value, -1e9, 1e9, "a finite number");
  }
  bool present(const std::string& field, bool has, std::string_view what) const {
    if (!has) fail(field, fmt::format("missing; expected {}", what));
    return has;
  }
  /// A time within the run.
  bool time(const std::string& field, double value, double duration) const {
    return in_range(field, value, 0.0, duration, fmt::format("0..{} (the duration, s)", duration));
  }

 private:
  const config::SourceMap& sources_;
  config::ConfigErrors& errors_;
};

}  // namespace hil::config
