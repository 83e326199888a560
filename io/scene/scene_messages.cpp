#include "io/scene/scene_messages.hpp"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>

#include "io/scene/foxglove/FrameTransform.pb.h"
#include "io/scene/foxglove/PosesInFrame.pb.h"
#include "io/scene/foxglove/SceneUpdate.pb.h"

namespace hil::io::scene {

namespace {

namespace pb = google::protobuf;

constexpr Rgb kBodyColor{0.15, 0.35, 0.75};
constexpr Rgb kTireColor{0.1, 0.1, 0.1};
constexpr Rgb kSpokeColor{0.85, 0.85, 0.85};
constexpr Rgb kPathColor{0.1, 0.6, 1.0};
constexpr Rgb kForceColor{1.0, 0.1, 0.6};
constexpr double kPathLift = 0.03;  // the path line above the ground [m]

void set_stamp(pb::Timestamp& t, std::uint64_t ns) {
  t.set_seconds(static_cast<std::int64_t>(ns / 1'000'000'000));
  t.set_nanos(static_cast<std::int32_t>(ns % 1'000'000'000));
}

void set_vector(foxglove::Vector3& v, const Vec3& a) {
  v.set_x(a[0]);
  v.set_y(a[1]);
  v.set_z(a[2]);
}

void set_rotation(foxglove::Quaternion& q, const Quaternion& r) {
  q.set_x(r.x);
  q.set_y(r.y);
  q.set_z(r.z);
  q.set_w(r.w);
}

void set_pose(foxglove::Pose& p, const Vec3& position, const Quaternion& orientation = {}) {
  set_vector(*p.mutable_position(), position);
  set_rotation(*p.mutable_orientation(), orientation);
}

void set_color(foxglove::Color& c, const Rgb& rgb, double alpha = 1.0) {
  c.set_r(rgb[0]);
  c.set_g(rgb[1]);
  c.set_b(rgb[2]);
  c.set_a(alpha);
}

void set_point(foxglove::Point3& p, double x, double y, double z) {
  p.set_x(x);
  p.set_y(y);
  p.set_z(z);
}

/// A new entity: every field set, lifetime 0 (until replaced).
foxglove::SceneEntity& entity(foxglove::SceneUpdate& update, const std::string& id,
                              const std::string& frame, std::uint64_t stamp_ns, bool locked) {
  foxglove::SceneEntity& e = *update.add_entities();
  set_stamp(*e.mutable_timestamp(), stamp_ns);
  e.set_frame_id(frame);
  e.set_id(id);
  e.mutable_lifetime()->set_seconds(0);
  e.set_frame_locked(locked);
  return e;
}

/// Poses along `points`, each heading to the next (the last as the one before it).
void add_poses(foxglove::PosesInFrame& m, const std::vector<ScenePoint>& points) {
  double heading = 0.0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i + 1 < points.size()) {
      heading = std::atan2(points[i + 1].y - points[i].y, points[i + 1].x - points[i].x);
    }
    set_pose(*m.add_poses(), {points[i].x, points[i].y, points[i].z}, about_z(heading));
  }
}

std::vector<std::uint8_t> serialized(const pb::MessageLite& m) {
  std::vector<std::uint8_t> out(m.ByteSizeLong());
  m.SerializeToArray(out.data(), static_cast<int>(out.size()));
  return out;
}

void emit(const pb::MessageLite& m, std::vector<std::uint8_t>& bytes, const MessageOut& out) {
  bytes.resize(m.ByteSizeLong());
  m.SerializeToArray(bytes.data(), static_cast<int>(bytes.size()));
  out(bytes);
}

/// An object's solid at (x, y, z) turned by yaw, its base on z (scene.hpp SceneObject).
void add_object(foxglove::SceneEntity& e, const SceneObject& o, double x, double y, double z,
                double yaw) {
  const Vec3 centre{x, y, z + o.height / 2};
  if (o.shape == SceneObject::Shape::box) {
    foxglove::CubePrimitive& c = *e.add_cubes();
    set_pose(*c.mutable_pose(), centre, about_z(yaw));
    set_vector(*c.mutable_size(), {o.length, o.width, o.height});
    set_color(*c.mutable_color(), o.color);
    return;
  }
  foxglove::CylinderPrimitive& c = *e.add_cylinders();  // its axis is its z: upright
  set_pose(*c.mutable_pose(), centre, about_z(yaw));
  set_vector(*c.mutable_size(), {o.width, o.width, o.height});
  c.set_bottom_scale(1.0);
  c.set_top_scale(o.shape == SceneObject::Shape::cone ? 0.0 : 1.0);
  set_color(*c.mutable_color(), o.color);
}

void add_world(const Scene& s, std::uint64_t stamp_ns, foxglove::SceneUpdate& u) {
  const TerrainMesh& mesh = s.terrain;
  foxglove::TriangleListPrimitive& ground =
      *entity(u, "terrain", "world", stamp_ns, false).add_triangles();
  set_pose(*ground.mutable_pose(), {0.0, 0.0, 0.0});
  set_color(*ground.mutable_color(), {1.0, 1.0, 1.0});
  ground.mutable_points()->Reserve(static_cast<int>(mesh.vertex_count()));
  ground.mutable_colors()->Reserve(static_cast<int>(mesh.vertex_count()));
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    set_point(*ground.add_points(), mesh.vertices[3 * v], mesh.vertices[3 * v + 1],
              mesh.vertices[3 * v + 2]);
    set_color(*ground.add_colors(),
              {mesh.colors[3 * v], mesh.colors[3 * v + 1], mesh.colors[3 * v + 2]});
  }
  ground.mutable_indices()->Add(mesh.indices.begin(), mesh.indices.end());
  if (!s.cones.empty()) {
    foxglove::SceneEntity& cones = entity(u, "cones", "world", stamp_ns, false);
    for (const ScenePoint& c : s.cones) {
      foxglove::CylinderPrimitive& cone = *cones.add_cylinders();
      set_pose(*cone.mutable_pose(), {c.x, c.y, c.z + kConeHeight / 2});
      set_vector(*cone.mutable_size(), {kConeDiameter, kConeDiameter, kConeHeight});
      cone.set_bottom_scale(1.0);
      cone.set_top_scale(0.0);
      set_color(*cone.mutable_color(), kConeColor);
    }
  }
  for (const SceneObject& o : s.objects) {
    if (o.moving) continue;  // in /scene/objects
    add_object(entity(u, "object_" + o.name, "world", stamp_ns, false), o, o.x, o.y, o.z, o.yaw);
  }
  if (!s.path.empty()) {
    foxglove::LinePrimitive& line = *entity(u, "path", "world", stamp_ns, false).add_lines();
    line.set_type(foxglove::LinePrimitive::LINE_STRIP);
    set_pose(*line.mutable_pose(), {0.0, 0.0, 0.0});
    line.set_thickness(0.05);
    line.set_scale_invariant(false);
    for (const ScenePoint& p : s.path) set_point(*line.add_points(), p.x, p.y, p.z + kPathLift);
    set_color(*line.mutable_color(), kPathColor);
  }
}

void add_vehicle(const Scene& s, const SceneFrames& frames, std::uint64_t stamp_ns,
                 foxglove::SceneUpdate& u) {
  const SceneBody& b = s.vehicle.body;
  foxglove::CubePrimitive& body = *entity(u, "body", "body", stamp_ns, true).add_cubes();
  set_pose(*body.mutable_pose(), {0.0, 0.0, b.z});
  set_vector(*body.mutable_size(), {b.length, b.width, b.height});
  set_color(*body.mutable_color(), kBodyColor, 0.85);
  for (std::size_t w = 0; w < s.vehicle.wheels.size(); ++w) {
    const SceneWheel& g = s.vehicle.wheels[w];
    foxglove::SceneEntity& e =
        entity(u, frames.wheel_frame(w), frames.wheel_frame(w), stamp_ns, true);
    // a cylinder's axis is its z: turned onto the wheel's axle (y)
    foxglove::CylinderPrimitive& tire = *e.add_cylinders();
    set_pose(*tire.mutable_pose(), {0.0, 0.0, 0.0}, about_x(std::numbers::pi / 2));
    set_vector(*tire.mutable_size(), {2 * g.radius, 2 * g.radius, g.width});
    tire.set_bottom_scale(1.0);
    tire.set_top_scale(1.0);
    set_color(*tire.mutable_color(), kTireColor);
    // a spoke across the wheel, so that its spin shows
    foxglove::CubePrimitive& spoke = *e.add_cubes();
    set_pose(*spoke.mutable_pose(), {0.0, 0.0, 0.0});
    set_vector(*spoke.mutable_size(), {1.8 * g.radius, g.width * 1.05, 0.15 * g.radius});
    set_color(*spoke.mutable_color(), kSpokeColor);
  }
}

}  // namespace

SceneMessages::SceneMessages(const Scene& scene, const rt::ChannelTable& table)
    : scene_(scene), frames_(scene, table) {
  for (const SceneObject& o : scene.objects) {
    if (!o.moving) continue;
    const auto index = [&](const char* what) {
      const std::string name = object_channel(o, what);
      const std::optional<rt::ChannelId> id = table.find(name);
      if (!id) throw std::invalid_argument("the scene's channel " + name + " is not in the table");
      return id->index;
    };
    moving_.push_back(
        {.object = &o, .x = index("x"), .y = index("y"), .z = index("z"), .yaw = index("yaw")});
  }
}

std::vector<std::uint8_t> SceneMessages::static_message(SceneTopic topic,
                                                        std::uint64_t stamp_ns) const {
  pb::Arena arena;  // the terrain is tens of thousands of small messages
  switch (topic) {
    case SceneTopic::world: {
      auto* u = pb::Arena::CreateMessage<foxglove::SceneUpdate>(&arena);
      add_world(scene_, stamp_ns, *u);
      return serialized(*u);
    }
    case SceneTopic::vehicle: {
      auto* u = pb::Arena::CreateMessage<foxglove::SceneUpdate>(&arena);
      add_vehicle(scene_, frames_, stamp_ns, *u);
      return serialized(*u);
    }
    case SceneTopic::path: {
      auto* m = pb::Arena::CreateMessage<foxglove::PosesInFrame>(&arena);
      set_stamp(*m->mutable_timestamp(), stamp_ns);
      m->set_frame_id("world");
      add_poses(*m, scene_.path);
      return serialized(*m);
    }
    default:
      throw std::invalid_argument(std::string(topic_info(topic).topic) + " is not static");
  }
}

void SceneMessages::transforms(std::span<const double> values, std::uint64_t stamp_ns,
                               const MessageOut& out) {
  frames_.frames(values, transforms_);
  foxglove::FrameTransform m;
  set_stamp(*m.mutable_timestamp(), stamp_ns);
  for (const FrameTransformValue& t : transforms_) {
    m.set_parent_frame_id(*t.parent);
    m.set_child_frame_id(*t.child);
    set_vector(*m.mutable_translation(), t.translation);
    set_rotation(*m.mutable_rotation(), t.rotation);
    emit(m, bytes_, out);
  }
}

void SceneMessages::forces(std::span<const double> values, std::uint64_t stamp_ns,
                           const MessageOut& out) {
  foxglove::SceneUpdate u;
  for (std::size_t w = 0; w < frames_.wheel_count(); ++w) {
    const TireForce f = frames_.force(values, w);
    const double length = std::hypot(f.fx, f.fy) * kForceArrowMetresPerNewton;
    const double head = std::min(0.25 * length, 0.15);
    foxglove::ArrowPrimitive& a =
        *entity(u, "force_" + frames_.wheel_name(w), frames_.hub_frame(w), stamp_ns, true)
             .add_arrows();
    // from the contact patch, below the hub, along the force in the wheel's plane
    set_pose(*a.mutable_pose(), {0.0, 0.0, -scene_.vehicle.wheels[w].radius},
             about_z(std::atan2(f.fy, f.fx)));
    a.set_shaft_length(std::isfinite(length) ? length - head : 0.0);
    a.set_shaft_diameter(0.04);
    a.set_head_length(std::isfinite(head) ? head : 0.0);
    a.set_head_diameter(0.1);
    set_color(*a.mutable_color(), kForceColor);
  }
  emit(u, bytes_, out);
}

void SceneMessages::objects(std::span<const double> values, std::uint64_t stamp_ns,
                            const MessageOut& out) {
  if (moving_.empty()) return;
  foxglove::SceneUpdate u;
  for (const MovingObject& m : moving_) {
    add_object(entity(u, "object_" + m.object->name, "world", stamp_ns, false), *m.object,
               values[m.x], values[m.y], values[m.z], values[m.yaw]);
  }
  emit(u, bytes_, out);
}

void SceneMessages::trail(const SceneTrail& trail, std::uint64_t stamp_ns, const MessageOut& out) {
  trail.points(points_);
  foxglove::PosesInFrame m;
  set_stamp(*m.mutable_timestamp(), stamp_ns);
  m.set_frame_id("world");
  add_poses(m, points_);
  emit(m, bytes_, out);
}

}  // namespace hil::io::scene
