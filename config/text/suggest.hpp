#pragma once
// "Did you mean ...?" for misspelt names.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hil::config {

/// Levenshtein distance (insertions, deletions, substitutions; each costs 1). Thread-safe.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `name`, if it is close enough to be a plausible typo: at most a
/// third of the longer name's characters differ (at least 1, at most 3), or one is a
/// prefix of the other of at least 3 characters ("period" for "period_us"). Ties go to
/// the first candidate. Thread-safe.
[[nodiscard]] std::optional<std::string> closest_name(std::string_view name,
                                                      std::span<const std::string> candidates);

}  // namespace hil::config
