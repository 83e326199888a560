#pragma once
// The 3D scene of a run as data (docs/console.md "3D scene and Foxglove 3D"): what does not
// change during the run — the vehicle's geometry, the terrain as a coloured triangle mesh,
// the scenario's cones and planned path — and the names of the channels that pose it at a
// tick. Built once at setup (runtime/scene/scene_builder.hpp), then shared read-only by the
// recorder thread and the console thread.
//
// Frames (all metres and radians, z up):
//   world                the rig's world frame, that of vehicle.body.position.{x,y,z}
//   world → body         translation = vehicle.body.position, rotation = qz(yaw)·qy(pitch)·qx(roll)
//   body → hub_<w>       translation = the wheel centre (x, y, z + travel): travel is the spring
//                        compression ζ (vehicle.wheel.<w>.suspension_travel; + moves the wheel up,
//                        towards the body), rotation = qz(steer_angle)
//   hub_<w> → wheel_<w>  rotation = qy(angle): the wheel's spin
//   body → lidar_<name>  a lidar's mount (fixed): the frame of its /lidar/<name> point clouds
// The scenario's objects are in "world", at world.<name>.{x,y,z,yaw} (a moving one at each tick).
//
// Thread-safety: a plain value; immutable once built, so any thread may read it.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hil::io::scene {

/// A point in the world frame [m]; z is the ground's height there.
struct ScenePoint {
  double x = 0.0, y = 0.0, z = 0.0;
};

using Rgb = std::array<double, 3>;  ///< 0..1

struct SceneWheel {
  std::string name;                  ///< "fl", "fr", "rl", "rr" (the rig's wheel names)
  double x = 0.0, y = 0.0, z = 0.0;  ///< wheel centre at zero travel, body frame [m]
  double radius = 0.0, width = 0.0;  ///< of the tire [m]
  bool steered = false;
};

/// The body drawn as a box in the body frame, centred at (0, 0, z).
struct SceneBody {
  double length = 0.0, width = 0.0, height = 0.0;
  double z = 0.0;  ///< box centre above the body frame's origin (the sprung CG) [m]
};

struct SceneVehicle {
  double wheelbase = 0.0;  ///< first to last axle [m]
  double track = 0.0;      ///< of the first axle [m]
  SceneBody body;
  std::vector<SceneWheel> wheels;
};

struct SceneSurface {
  std::string name;  ///< "dry", "wet", "snow", "ice", "sand", "clay"
  Rgb color{};
};

/// The ground as an indexed triangle mesh in the world frame.
struct TerrainMesh {
  std::vector<double> vertices;        ///< x0, y0, z0, x1, … [m]
  std::vector<double> colors;          ///< r0, g0, b0, … per vertex, 0..1
  std::vector<std::uint32_t> indices;  ///< three per triangle, counter-clockwise seen from above
  std::vector<SceneSurface> surfaces;  ///< the surfaces the mesh shows, with their colours
  [[nodiscard]] std::size_t vertex_count() const noexcept { return vertices.size() / 3; }
};

/// One of the scenario's objects (docs/sensors.md "Objects"; the course's cones are `cones`):
/// a box, an upright cylinder or a cone with its base centred on (x, y, z), turned by yaw.
struct SceneObject {
  enum class Shape : std::uint8_t { box, cylinder, cone };
  std::string name;  ///< its channels: world.<name>.x, .y, .z, .yaw
  Shape shape = Shape::box;
  std::string kind;                                ///< "obstacle", "vehicle", "pedestrian"
  double length = 1.0, width = 1.0, height = 1.0;  ///< [m]; cylinder, cone: diameter `width`
  double x = 0.0, y = 0.0, z = 0.0, yaw = 0.0;     ///< where it starts, world frame [m], [rad]
  bool moving = false;  ///< posed at each tick by its channels (else where it starts)
  Rgb color{};
};

/// A sensor's frame fixed on the body (docs/sensors.md): its mount.
struct SceneSensor {
  std::string frame;                          ///< "lidar_roof"
  double x = 0.0, y = 0.0, z = 0.0;           ///< from the CG, body frame [m]
  double roll = 0.0, pitch = 0.0, yaw = 0.0;  ///< z-y-x, relative to the body [rad]
};

/// The channels of one wheel.
struct SceneWheelChannels {
  std::string spin, steer, travel;  ///< angle [rad], steer_angle [rad], suspension_travel [m]
  std::string fx, fy, fz;           ///< longitudinal, lateral and normal tire force [N]
};

/// The channels that pose the scene at a tick.
struct SceneChannels {
  std::string x, y, z, roll, pitch, yaw;
  std::vector<SceneWheelChannels> wheels;  ///< in the order of SceneVehicle::wheels
};

struct Scene {
  SceneVehicle vehicle;
  TerrainMesh terrain;
  std::vector<ScenePoint> cones;     ///< scenario cones (none without a scenario)
  std::vector<ScenePoint> path;      ///< the planned path (none without a scenario)
  std::vector<SceneObject> objects;  ///< the scenario's objects but the course's cones
  std::vector<SceneSensor> sensors;  ///< the rig's lidars
  SceneChannels channels;
};

/// An object's pose channel: world.<name>.<what> ("x", "y", "z", "yaw").
[[nodiscard]] inline std::string object_channel(const SceneObject& o, const char* what) {
  return "world." + o.name + "." + what;
}

/// Drawing constants shared by every view of the scene.
inline constexpr double kConeDiameter = 0.3;            ///< [m] at the base
inline constexpr double kConeHeight = 0.5;              ///< [m]
inline constexpr Rgb kConeColor{1.0, 0.45, 0.0};        ///< orange
inline constexpr Rgb kObstacleColor{0.55, 0.45, 0.35};  ///< an object by its kind
inline constexpr Rgb kVehicleObjectColor{0.8, 0.15, 0.15};
inline constexpr Rgb kPedestrianColor{0.95, 0.8, 0.1};
inline constexpr double kForceArrowMetresPerNewton = 1.0 / 2000.0;  ///< 1 m per 2 kN
inline constexpr std::size_t kTrailPoints = 2000;  ///< driven trail: the last positions …
inline constexpr double kTrailSpacing = 0.1;       ///< … at least this far apart [m]
/// The highest rate /scene/trail is written or sent at [Hz] (a full trail: 2000 poses, 140 kB).
inline constexpr double kTrailRateHz = 2.0;
/// The rate the console's Foxglove endpoint sends /tf and /scene/forces at [Hz]: a display's.
inline constexpr double kLiveSceneRateHz = 30.0;

}  // namespace hil::io::scene
