#include "tools/cli/sweep_range.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <optional>

namespace hil::cli {

namespace {

std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  try {
    const double v = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::size_t SweepRange::count() const {
  return static_cast<std::size_t>(std::floor((to - from) / step + 1e-9)) + 1;
}

double SweepRange::at(std::size_t i) const { return from + static_cast<double>(i) * step; }

SweepRange parse_sweep_range(const std::string& option, const std::string& text, double lo,
                             double hi, std::size_t max_points) {
  const auto fail = [&option](const std::string& why) { throw CLI::ValidationError(option, why); };
  const std::size_t a = text.find(':');
  const std::size_t b = a == std::string::npos ? a : text.find(':', a + 1);
  if (b == std::string::npos || text.find(':', b + 1) != std::string::npos) {
    fail(fmt::format("'{}' is not FROM:TO:STEP (example: -0.2:1:0.01)", text));
  }
  const auto from = number(text.substr(0, a));
  const auto to = number(text.substr(a + 1, b - a - 1));
  const auto step = number(text.substr(b + 1));
  if (!from || !to || !step) fail(fmt::format("'{}': FROM, TO and STEP must be numbers", text));
  const SweepRange r{.from = *from, .to = *to, .step = *step};
  if (r.step <= 0.0) fail(fmt::format("'{}': STEP must be > 0", text));
  if (r.from > r.to) fail(fmt::format("'{}': FROM must not exceed TO", text));
  if (r.from < lo || r.to > hi) {
    fail(fmt::format("'{}' is out of range; FROM and TO must lie in [{}, {}]", text, lo, hi));
  }
  if ((r.to - r.from) / r.step >= static_cast<double>(max_points)) {
    fail(fmt::format("'{}' gives more than {} points; use a larger STEP", text, max_points));
  }
  return r;
}

}  // namespace hil::cli
