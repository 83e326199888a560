#pragma once
// The driven trail: the vehicle's last kTrailPoints positions, each at least kTrailSpacing
// from the one before (io/scene/scene.hpp), oldest first. What /scene/trail shows.
//
// Thread-safety: one thread at a time (each consumer keeps its own trail).

#include <cstddef>
#include <vector>

#include "io/scene/scene.hpp"

namespace hil::io::scene {

class SceneTrail {
 public:
  /// Takes the position at one sample: kept when it is kTrailSpacing or more from the last
  /// kept one (the first always is); the oldest goes once kTrailPoints are held.
  void add(double x, double y, double z);
  /// The positions held, oldest first (into `out`, cleared first).
  void points(std::vector<ScenePoint>& out) const;
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  void clear() noexcept { count_ = next_ = 0; }

 private:
  std::vector<ScenePoint> ring_;  // grows to kTrailPoints, then wraps
  std::size_t next_ = 0;          // where the next point goes
  std::size_t count_ = 0;
};

}  // namespace hil::io::scene
