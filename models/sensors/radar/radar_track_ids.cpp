#include "models/sensors/radar/radar_track_ids.hpp"

#include <algorithm>

namespace hil::models::radar {

TrackIds::TrackIds(std::size_t targets) : id_(targets, -1), listed_(targets, 0) {
  for (std::size_t i = 0; i < kIdCount; ++i) free_[i] = static_cast<std::uint8_t>(i);
}

void TrackIds::begin_cycle() noexcept { std::fill(listed_.begin(), listed_.end(), 0); }

std::uint8_t TrackIds::assign(std::size_t target) noexcept {
  listed_[target] = 1;
  if (id_[target] >= 0) return static_cast<std::uint8_t>(id_[target]);
  if (free_size_ == 0) return 0;  // unreachable: ≤ 100 targets listed per cycle (max_objects)
  const std::uint8_t id = free_[free_head_];
  free_head_ = (free_head_ + 1) % kIdCount;
  --free_size_;
  id_[target] = id;
  return id;
}

void TrackIds::end_cycle() noexcept {
  for (std::size_t t = 0; t < id_.size(); ++t) {
    if (listed_[t] != 0 || id_[t] < 0) continue;
    free_[(free_head_ + free_size_) % kIdCount] = static_cast<std::uint8_t>(id_[t]);
    ++free_size_;
    id_[t] = -1;
  }
}

}  // namespace hil::models::radar
