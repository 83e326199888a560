#pragma once
// The page's `scene` message (docs/console.md, protocol hilsim.console.v1) without its "type":
// {"vehicle": {wheelbase, track, body: {length, width, height, z}, wheels: [{name, x, y, z,
// radius, width, steered}]}, "terrain": {vertices, colors, indices, surfaces: [{name, color}]},
// "cones": [[x, y]], "path": [[x, y]], "channels": {x, y, z, roll, pitch, yaw, wheels: [{name,
// spin, steer, travel, fx, fy, fz}]}}. Vertex coordinates rounded to the millimetre and colours
// to 1/1000, so that the text stays short.
// Thread-safety: a pure function.

#include <nlohmann/json.hpp>

#include "io/scene/scene.hpp"

namespace hil::io::scene {

[[nodiscard]] nlohmann::json scene_json(const Scene& scene);

}  // namespace hil::io::scene
