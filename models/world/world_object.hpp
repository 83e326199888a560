#pragma once
// What is in the world besides the terrain and the vehicle (docs/sensors.md "Objects"): static
// obstacles and moving targets, each a simple solid with a radar cross-section. The shapes are
// what the rig's range sensors see (lidar rays hit their surfaces; radars list them); their
// states are written every tick by the objects' stage (runtime/world/) and copied, per tick,
// into the snapshots the sensors work on. Pure data: no I/O, no allocation after setup.

#include <cstdint>
#include <string>

namespace hil::models {

enum class ObjectShape : std::uint8_t {
  box,       ///< length (along its yaw) × width × height; its base centred on (x, y, z)
  cylinder,  ///< vertical, diameter `width`, `height`; base centred on (x, y, z)
  cone,      ///< vertical, base diameter `width`, apex `height` above the base centre
};

enum class ObjectKind : std::uint8_t {
  obstacle,    ///< never moves
  vehicle,     ///< moves along a path
  pedestrian,  ///< moves along a path
};

/// One object's fixed description (setup phase).
struct WorldObject {
  std::string name;  ///< unique; its channels are world.<name>.*
  ObjectShape shape = ObjectShape::box;
  ObjectKind kind = ObjectKind::obstacle;
  double length = 1.0;     ///< [m] box: extent along its heading
  double width = 1.0;      ///< [m] box: extent across; cylinder and cone: diameter
  double height = 1.0;     ///< [m]
  double rcs_dbsm = 10.0;  ///< radar cross-section [dBsm]
};

/// One object's state at a tick, world frame (ISO 8855 earth axes: x east, y north, z up).
struct ObjectState {
  double x = 0.0, y = 0.0;    ///< base centre [m]
  double z = 0.0;             ///< base height: the terrain under (x, y) [m]
  double yaw = 0.0;           ///< heading from world x [rad]
  double vx = 0.0, vy = 0.0;  ///< velocity [m/s]
  bool moving = false;        ///< started and not yet at the end of its path
};

}  // namespace hil::models
