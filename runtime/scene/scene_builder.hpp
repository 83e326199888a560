#pragma once
// The 3D scene of a run (io/scene/scene.hpp), built once at setup from what the run drives on:
// the rig's vehicle parameters (wheel positions, tires, steered axles), its terrain (sampled
// into a mesh: runtime/scene/terrain_mesh.hpp) and the scenario's course (cones, planned path:
// runtime/scenario/course_layout.hpp). The recording and the console share the result.
//
// The body is drawn as a box over the wheels' footprint: from the rearmost to the foremost
// tire edge, as wide as the track less a tire (inside the wheels), from the wheel centres up
// by one wheel diameter. The terrain covers the course's bounding box (path, cones and start)
// plus kCourseMargin, or kAreaWithoutCourse square around the start without a course.
// Setup phase (allocates); thread-safe.

#include <memory>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/scene/scene.hpp"
#include "runtime/scene/terrain_mesh.hpp"

namespace hil::runtime {

inline constexpr double kCourseMargin = 20.0;        ///< around a course [m]
inline constexpr double kAreaWithoutCourse = 100.0;  ///< side of the square without one [m]

/// The scene of a run of `rig` driving `scenario` (nullptr: none), or nullptr for a rig
/// without a vehicle.
[[nodiscard]] std::shared_ptr<const io::scene::Scene> build_scene(
    const config::RigSpec& rig, const config::ScenarioSpec* scenario,
    const TerrainMeshSpec& mesh = {});

/// The area the terrain mesh covers (see above).
[[nodiscard]] MeshArea scene_area(const config::ScenarioSpec* scenario);

}  // namespace hil::runtime
