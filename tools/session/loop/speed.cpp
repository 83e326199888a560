#include "tools/session/loop/speed.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace hil::session {

namespace {
constexpr double kMaxFactor = 1e6;
}  // namespace

std::optional<Speed> Speed::parse(std::string_view text) {
  if (text == "realtime") return Speed{};
  if (text == "max") return Speed{.mode = Mode::max};
  if (!text.empty() && text.back() == 'x') text.remove_suffix(1);  // "2x"
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value) ||
      value <= 0 || value > kMaxFactor) {
    return std::nullopt;
  }
  return Speed{.mode = Mode::factor, .factor = value};
}

std::string Speed::to_string() const {
  switch (mode) {
    case Mode::realtime:
      return "realtime";
    case Mode::max:
      return "max";
    case Mode::factor:
      break;
  }
  return fmt::format("{:g}x", factor);
}

std::unique_ptr<rt::Clock> Speed::make_clock() const {
  switch (mode) {
    case Mode::realtime:
      return std::make_unique<rt::MonotonicClock>();
    case Mode::max:
      return std::make_unique<rt::FreeRunningClock>();
    case Mode::factor:
      break;
  }
  return std::make_unique<rt::ScaledClock>(factor);
}

}  // namespace hil::session
