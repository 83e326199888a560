#include "io/scene/scene_trail.hpp"

#include <cmath>

namespace hil::io::scene {

void SceneTrail::add(double x, double y, double z) {
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) return;
  if (count_ > 0) {
    const ScenePoint& last = ring_[(next_ + kTrailPoints - 1) % kTrailPoints];
    if (std::hypot(x - last.x, y - last.y, z - last.z) < kTrailSpacing) return;
  }
  if (ring_.size() < kTrailPoints) ring_.resize(kTrailPoints);
  ring_[next_] = {.x = x, .y = y, .z = z};
  next_ = (next_ + 1) % kTrailPoints;
  if (count_ < kTrailPoints) ++count_;
}

void SceneTrail::points(std::vector<ScenePoint>& out) const {
  out.clear();
  const std::size_t first = (next_ + kTrailPoints - count_) % kTrailPoints;
  for (std::size_t i = 0; i < count_; ++i) out.push_back(ring_[(first + i) % kTrailPoints]);
}

}  // namespace hil::io::scene
