#include "runtime/scene/scene_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "models/world/object_motion.hpp"
#include "runtime/scenario/course_layout.hpp"

namespace hil::runtime {

namespace {

io::scene::SceneVehicle vehicle_of(const models::VehicleParams& p) {
  io::scene::SceneVehicle out;
  const std::size_t axles = p.axle_count;
  out.wheelbase = p.axles[0].x - p.axles[axles - 1].x;
  out.track = p.axles[0].track;
  double front = -std::numeric_limits<double>::infinity();
  double rear = std::numeric_limits<double>::infinity();
  double inside = 0.0;
  double centre_z = 0.0;
  double diameter = 0.0;
  for (std::size_t a = 0; a < axles; ++a) {
    const models::AxleParams& axle = p.axles[a];
    const double radius = axle.tire.diameter / 2;
    for (const bool right : {false, true}) {
      out.wheels.push_back(
          {.name = models::VehicleChannels::wheel_name(models::wheel_index(a, right), axles),
           .x = axle.x,
           .y = (right ? -0.5 : 0.5) * axle.track,
           .z = axle.z,
           .radius = radius,
           .width = axle.tire.width,
           .steered = axle.steering.steered});
    }
    front = std::max(front, axle.x + radius);
    rear = std::min(rear, axle.x - radius);
    inside = std::max(inside, axle.track - axle.tire.width);
    centre_z += axle.z / static_cast<double>(axles);
    diameter = std::max(diameter, axle.tire.diameter);
  }
  out.body = {.length = front - rear,
              .width = std::max(inside, 0.5 * out.track),
              .height = diameter,
              .z = centre_z + diameter / 2};
  return out;
}

io::scene::SceneChannels channels_of(const io::scene::SceneVehicle& v) {
  io::scene::SceneChannels out{.x = "vehicle.body.position.x",
                               .y = "vehicle.body.position.y",
                               .z = "vehicle.body.position.z",
                               .roll = "vehicle.body.roll",
                               .pitch = "vehicle.body.pitch",
                               .yaw = "vehicle.body.yaw"};
  for (const io::scene::SceneWheel& w : v.wheels) {
    const auto name = [&](const char* what) {
      return fmt::format("vehicle.wheel.{}.{}", w.name, what);
    };
    out.wheels.push_back({.spin = name("angle"),
                          .steer = name("steer_angle"),
                          .travel = name("suspension_travel"),
                          .fx = name("longitudinal_force"),
                          .fy = name("lateral_force"),
                          .fz = name("normal_force")});
  }
  return out;
}

std::vector<io::scene::ScenePoint> on_ground(const std::vector<WorldPoint>& points,
                                             const models::Terrain& terrain) {
  std::vector<io::scene::ScenePoint> out;
  out.reserve(points.size());
  for (const WorldPoint& p : points) out.push_back({p.x, p.y, terrain.height(p.x, p.y)});
  return out;
}

/// The scenario's objects but the course's cones (drawn as `cones`), on the ground.
std::vector<io::scene::SceneObject> objects_of(const config::ScenarioSpec& s,
                                               const models::Terrain& terrain) {
  using Shape = io::scene::SceneObject::Shape;
  std::vector<io::scene::SceneObject> out;
  for (const models::MovingObjectSpec& m : s.objects) {
    if (m.course_cone) continue;
    const models::WorldObject& o = m.object;
    const Shape shape = o.shape == models::ObjectShape::box        ? Shape::box
                        : o.shape == models::ObjectShape::cylinder ? Shape::cylinder
                                                                   : Shape::cone;
    const char* kind = o.kind == models::ObjectKind::vehicle      ? "vehicle"
                       : o.kind == models::ObjectKind::pedestrian ? "pedestrian"
                                                                  : "obstacle";
    const io::scene::Rgb color =
        shape == Shape::cone                       ? io::scene::kConeColor
        : o.kind == models::ObjectKind::vehicle    ? io::scene::kVehicleObjectColor
        : o.kind == models::ObjectKind::pedestrian ? io::scene::kPedestrianColor
                                                   : io::scene::kObstacleColor;
    // with a path: its first point, along it (models/world/object_motion.hpp)
    const models::ObjectState start = models::ObjectMotion(m).at(-1.0);
    out.push_back({.name = o.name,
                   .shape = shape,
                   .kind = kind,
                   .length = o.length,
                   .width = o.width,
                   .height = o.height,
                   .x = start.x,
                   .y = start.y,
                   .z = terrain.height(start.x, start.y),
                   .yaw = start.yaw,
                   .moving = !m.path.empty(),
                   .color = color});
  }
  return out;
}

}  // namespace

MeshArea scene_area(const config::ScenarioSpec* scenario) {
  const double half = kAreaWithoutCourse / 2;
  if (scenario == nullptr) return {.x_min = -half, .x_max = half, .y_min = -half, .y_max = half};
  const CourseLayout course = course_layout(*scenario);
  MeshArea box{.x_min = scenario->start.x,
               .x_max = scenario->start.x,
               .y_min = scenario->start.y,
               .y_max = scenario->start.y};
  const auto cover = [&](double x, double y) {
    box = {.x_min = std::min(box.x_min, x),
           .x_max = std::max(box.x_max, x),
           .y_min = std::min(box.y_min, y),
           .y_max = std::max(box.y_max, y)};
  };
  for (const auto* points : {&course.path, &course.cones}) {
    for (const WorldPoint& p : *points) cover(p.x, p.y);
  }
  for (const models::MovingObjectSpec& o : scenario->objects) {  // where they stand and go
    cover(o.start.x, o.start.y);
    for (const models::PathPoint& p : o.path) cover(p.x, p.y);
  }
  return {.x_min = box.x_min - kCourseMargin,
          .x_max = box.x_max + kCourseMargin,
          .y_min = box.y_min - kCourseMargin,
          .y_max = box.y_max + kCourseMargin};
}

std::shared_ptr<const io::scene::Scene> build_scene(const config::RigSpec& rig,
                                                    const config::ScenarioSpec* scenario,
                                                    const TerrainMeshSpec& mesh) {
  if (!rig.vehicle) return nullptr;
  const models::FlatTerrain flat({});
  const models::Terrain& terrain = rig.terrain ? *rig.terrain : flat;
  auto scene = std::make_shared<io::scene::Scene>();
  scene->vehicle = vehicle_of(*rig.vehicle);
  scene->channels = channels_of(scene->vehicle);
  scene->terrain = terrain_mesh(terrain, scene_area(scenario), mesh);
  if (scenario != nullptr) {
    const CourseLayout course = course_layout(*scenario);
    scene->cones = on_ground(course.cones, terrain);
    scene->path = on_ground(course.path, terrain);
    scene->objects = objects_of(*scenario, terrain);
  }
  for (const config::LidarSpec& l : rig.lidars) {
    const models::SensorMount& m = l.mount;
    scene->sensors.push_back({.frame = "lidar_" + l.name,
                              .x = m.position.x(),
                              .y = m.position.y(),
                              .z = m.position.z(),
                              .roll = m.roll,
                              .pitch = m.pitch,
                              .yaw = m.yaw});
  }
  return scene;
}

}  // namespace hil::runtime
