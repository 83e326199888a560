#pragma once
// How a scenario's object moves (docs/sensors.md "Objects"): a target follows a polyline in the
// world frame at a speed profile. Each path point's speed holds from that point on; the speed
// changes at no more than the object's acceleration bound, in time to be at or below a lower
// speed at the point that asks for it, and the object starts from rest at the first point and
// stops at the last. The profile is a sequence of constant-acceleration phases, computed once,
// so the state at any time since the start is exact (no integration drift, the same on replay).
// An object without a path stays where it is. Setup allocates; at() is RT-safe.

#include <cstddef>
#include <string>
#include <vector>

#include "models/world/world_object.hpp"

namespace hil::models {

/// One point of a moving object's path, world frame.
struct PathPoint {
  double x = 0.0, y = 0.0;  ///< [m]
  double speed = 0.0;       ///< [m/s] > 0, from this point on (the last point's is not used)
};

/// One object as a scenario places it (config/scenario/scenario_objects.hpp), world frame.
struct MovingObjectSpec {
  WorldObject object;
  /// Where it is before it starts (with a path: the path's first point, yaw along it).
  ObjectState start;
  /// Empty: it never moves; otherwise ≥ 2 points, consecutive points apart.
  std::vector<PathPoint> path;
  double start_s = 0.0;    ///< [s] run time it starts at, when start_when is empty
  std::string start_when;  ///< a channel condition ("vehicle.body.x > 20"): starts when it holds
  double max_acceleration = 2.0;  ///< [m/s²] > 0, speeding up and slowing down
  bool course_cone = false;       ///< one of the course's cones (drawn with the course)
};

/// One phase of a speed profile: constant acceleration from (t0, s0, v0) for `duration`.
struct MotionPhase {
  double t0 = 0.0, s0 = 0.0, v0 = 0.0;  ///< [s], [m] along the path, [m/s]
  double acceleration = 0.0;            ///< [m/s²]
  double duration = 0.0;                ///< [s]
};

/// The motion of one object along its path; immutable after construction.
/// Thread-safety: const methods may be called from any thread.
class ObjectMotion {
 public:
  /// Setup: the speed profile along `spec.path` (throws std::invalid_argument for a path of
  /// one point, a non-positive speed or acceleration, or two equal consecutive points).
  explicit ObjectMotion(const MovingObjectSpec& spec);

  /// RT: the state `t` seconds after its start (t < 0: not started yet; z = 0, the caller puts
  /// it on the terrain). Static objects: their start pose, not moving.
  [[nodiscard]] ObjectState at(double t) const noexcept;

  /// [s] from the start to the stop at the last point (0 for a static object).
  [[nodiscard]] double duration() const noexcept { return duration_; }
  /// [m] the path's length.
  [[nodiscard]] double length() const noexcept { return arc_.empty() ? 0.0 : arc_.back(); }
  [[nodiscard]] const std::vector<MotionPhase>& phases() const noexcept { return phases_; }

 private:
  /// Position and heading at arc length s along the path.
  void place(double s, ObjectState& out) const noexcept;

  ObjectState start_;
  std::vector<PathPoint> path_;
  std::vector<double> arc_;  ///< arc length at each path point [m]
  std::vector<MotionPhase> phases_;
  double duration_ = 0.0;
};

}  // namespace hil::models
