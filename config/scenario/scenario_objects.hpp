#pragma once
// A scenario's objects (config/scenario/scenario.proto `objects`, docs/sensors.md "Objects") as
// the world's objects: sizes and radar cross-sections defaulted by kind and shape, positions and
// paths mapped from the course frame to the world through the scenario's start pose (as the
// driving plan's path), start conditions checked against the rig's channels. The cones of the
// lane gates (the ISO 3888-1 course's) become objects too, "cone_<n>". Every problem is located
// at its field ("objects[2].path[1].speed"). Setup phase; not thread-safe (appends to one list).

#include <vector>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_checker.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "models/world/object_motion.hpp"

namespace hil::config {

class Scenario;  // config/scenario/scenario.pb.h (config's own generated code)

/// A course cone's size and radar cross-section (a traffic cone: ~0.3 m base, 0.5 m tall).
inline constexpr double kCourseConeDiameter = 0.3;  ///< [m]
inline constexpr double kCourseConeHeight = 0.5;    ///< [m]
inline constexpr double kCourseConeRcs = -10.0;     ///< [dBsm]

/// Where the lane gates' cones stand, in the course frame: along both edges of each lane gate,
/// at most kCourseConeSpacing apart and at its ends; pairs (the right, then the left edge).
[[nodiscard]] std::vector<CoursePoint> lane_gate_cones(const std::vector<GateSpec>& gates);

/// Cones along a lane gate's edges are at most this far apart [m].
inline constexpr double kCourseConeSpacing = 3.0;

/// `scenario.objects` and the cones of `out.gates` → `out.objects` (world frame); needs
/// out.start, out.duration_s, out.gates and out.marker_channels set. Problems go to `check`.
void convert_objects(const Scenario& scenario, const config::RigSpec& rig, const Checker& check,
                     ScenarioSpec& out);

}  // namespace hil::config
