#include "rt_core/time.hpp"

#include <fmt/format.h>
#include <charconv>
#include <cmath>
#include <limits>

namespace hil::rt {

namespace {

struct Unit {
  std::string_view suffix;
  Nanoseconds scale;
};

// Longest suffixes first so that "ms" is not read as "m" + "s".
constexpr Unit kUnits[] = {
    {"ns", 1}, {"us", kMicrosecond}, {"ms", kMillisecond}, {"s", kSecond}, {"m", 60 * kSecond}};

}  // namespace

std::optional<Nanoseconds> parse_duration(std::string_view text) noexcept {
  for (const Unit& unit : kUnits) {
    if (text.size() <= unit.suffix.size() || !text.ends_with(unit.suffix)) continue;
    const std::string_view number = text.substr(0, text.size() - unit.suffix.size());
    double value = 0.0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc{} || end != number.data() + number.size()) continue;
    const double ns = value * static_cast<double>(unit.scale);
    if (!std::isfinite(ns) || ns < 0.0 ||
        ns > static_cast<double>(std::numeric_limits<Nanoseconds>::max()) / 2.0) {
      return std::nullopt;
    }
    return static_cast<Nanoseconds>(std::llround(ns));
  }
  return std::nullopt;
}

std::string format_duration(Nanoseconds ns) {
  const auto pick = [ns](Nanoseconds scale, std::string_view suffix) {
    return fmt::format("{:g}{}", static_cast<double>(ns) / static_cast<double>(scale), suffix);
  };
  const Nanoseconds magnitude = ns < 0 ? -ns : ns;
  if (magnitude >= kSecond) return pick(kSecond, "s");
  if (magnitude >= kMillisecond) return pick(kMillisecond, "ms");
  if (magnitude >= kMicrosecond) return pick(kMicrosecond, "us");
  return pick(1, "ns");
}

}  // namespace hil::rt
