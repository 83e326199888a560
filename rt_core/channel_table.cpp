#include "rt_core/channel_table.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace hil::rt {

std::string_view to_string(Direction d) noexcept {
  return d == Direction::input ? "input" : "output";
}

bool is_valid_channel_name(std::string_view name) noexcept {
  bool segment_start = true;
  for (const char c : name) {
    if (c == '.') {
      if (segment_start) return false;  // empty segment
      segment_start = true;
      continue;
    }
    const bool lower = c >= 'a' && c <= 'z';
    const bool digit_or_underscore = (c >= '0' && c <= '9') || c == '_';
    if (segment_start ? !lower : !(lower || digit_or_underscore)) return false;
    segment_start = false;
  }
  return !segment_start;
}

ChannelId ChannelTable::add(ChannelSpec spec) {
  if (frozen()) throw std::invalid_argument("channel '" + spec.name + "' added after freeze()");
  if (!is_valid_channel_name(spec.name)) {
    throw std::invalid_argument("channel name '" + spec.name +
                                "' is not dotted lower snake case (e.g. vehicle.wheel.fl.speed)");
  }
  if (spec.unit.empty()) {
    throw std::invalid_argument("channel '" + spec.name + "' has no unit (use \"-\")");
  }
  const ChannelId id{static_cast<std::uint32_t>(specs_.size())};
  if (!ids_.emplace(spec.name, id).second) {
    throw std::invalid_argument("channel '" + spec.name + "' is defined twice");
  }
  values_.push_back(spec.initial);
  specs_.push_back(std::move(spec));
  return id;
}

std::optional<ChannelId> ChannelTable::find(std::string_view name) const {
  const auto it = ids_.find(std::string(name));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

ChannelId ChannelTable::resolve(std::string_view name) const {
  if (const auto id = find(name)) return *id;
  // Suggest the known channels that share the longest dotted prefix.
  std::string hint;
  std::size_t best = 0;
  for (const ChannelSpec& s : specs_) {
    const auto [a, b] = std::mismatch(s.name.begin(), s.name.end(), name.begin(), name.end());
    const auto common = static_cast<std::size_t>(a - s.name.begin());
    if (common > best) {
      best = common;
      hint = s.name;
    }
  }
  throw std::out_of_range("unknown channel '" + std::string(name) + "'" +
                          (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
}

void ChannelTable::freeze() {
  if (frozen()) return;
  // The snapshot's layout: the tick word, then the values; before the first tick, −1 and 0s
  snapshot_.emplace((values_.size() + 1) * sizeof(double));
  const std::vector<double> zeros(values_.size(), 0.0);
  snapshot_->write(std::bit_cast<std::uint64_t>(std::int64_t{-1}), zeros.data());
}

void ChannelTable::publish(std::int64_t tick) const noexcept {
  snapshot_->write(std::bit_cast<std::uint64_t>(tick), values_.data());  // tick word + values
}

void ChannelTable::read_snapshot(ChannelSnapshot& out) const {
  out.words_.resize(snapshot_->size() / sizeof(double));
  snapshot_->read(out.words_.data());
}

std::int64_t ChannelSnapshot::tick() const noexcept {
  return words_.empty() ? -1 : std::bit_cast<std::int64_t>(words_[0]);
}

std::span<const double> ChannelSnapshot::values() const noexcept {
  return words_.empty() ? std::span<const double>{} : std::span<const double>(words_).subspan(1);
}

}  // namespace hil::rt
