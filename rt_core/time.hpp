#pragma once
// Time on the RT path is int64 nanoseconds on CLOCK_MONOTONIC; simulation time is tick × dt.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hil::rt {

using Nanoseconds = std::int64_t;

inline constexpr Nanoseconds kMicrosecond = 1'000;
inline constexpr Nanoseconds kMillisecond = 1'000'000;
inline constexpr Nanoseconds kSecond = 1'000'000'000;

/// Parses "250us", "1.5ms", "10s", "500ns", "2m" (minutes). Returns nullopt on anything
/// else (no unit, negative, overflow). Thread-safe; allocates nothing.
[[nodiscard]] std::optional<Nanoseconds> parse_duration(std::string_view text) noexcept;

/// Formats a duration with the largest unit that keeps it readable: "250us", "1.5ms", "10s".
[[nodiscard]] std::string format_duration(Nanoseconds ns);

}  // namespace hil::rt
