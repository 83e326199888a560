#include "config/text/suggest.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace hil::config {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table: row[j] = distance(a[0, i), b[0, j)).
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_name(std::string_view name,
                                        std::span<const std::string> candidates) {
  constexpr std::size_t kLongestName = 64;  // nobody mistypes a longer name; bounds the work
  constexpr std::size_t kShortestPrefix = 3;
  std::optional<std::string> best;
  if (name.size() > kLongestName) return best;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    const std::size_t longer = std::max(name.size(), candidate.size());
    const std::size_t allowed = std::clamp<std::size_t>(longer / 3, 1, 3);
    const bool prefix = std::min(name.size(), candidate.size()) >= kShortestPrefix &&
                        (candidate.starts_with(name) || name.starts_with(candidate));
    const std::size_t distance = edit_distance(name, candidate);
    if (distance > allowed && !prefix) continue;
    const std::size_t rank = prefix ? std::min(distance, allowed) : distance;
    if (!best || rank < best_distance) {
      best = candidate;
      best_distance = rank;
    }
  }
  return best;
}

}  // namespace hil::config
