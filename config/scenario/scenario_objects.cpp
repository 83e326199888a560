#include "config/scenario/scenario_objects.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <variant>

#include "config/can_spec.hpp"
#include "config/scenario/scenario.pb.h"
#include "config/text/suggest.hpp"
#include "rt_core/channel_condition.hpp"

namespace hil::config {

namespace {

using models::ObjectKind;
using models::ObjectShape;

constexpr double kMaxSize = 1000.0;    // [m] any side of an object
constexpr double kMaxSpeed = 100.0;    // [m/s] along a path
constexpr double kMaxAccel = 100.0;    // [m/s²]
constexpr double kDefaultAccel = 2.0;  // [m/s²]

/// The course frame → the world frame: the start pose's rotation and translation.
struct ToWorld {
  double x0, y0, yaw0, c, s;
  explicit ToWorld(const ScenarioPose& p)
      : x0(p.x), y0(p.y), yaw0(p.yaw), c(std::cos(p.yaw)), s(std::sin(p.yaw)) {}
  [[nodiscard]] std::pair<double, double> operator()(double x, double y) const {
    return {x0 + c * x - s * y, y0 + s * x + c * y};
  }
};

bool lower_snake_name(const std::string& name) {
  return !name.empty() && name.find('.') == std::string::npos && rt::is_valid_channel_name(name);
}

/// Size and radar cross-section when the file gives none: a car, a walking adult, a cone, a
/// crate (the proto's comments).
models::WorldObject defaults(ObjectKind kind, ObjectShape shape) {
  models::WorldObject o;
  o.kind = kind;
  o.shape = shape;
  if (kind == ObjectKind::vehicle) {
    o.length = 4.5, o.width = 1.8, o.height = 1.5, o.rcs_dbsm = 10.0;
  } else if (kind == ObjectKind::pedestrian) {
    o.length = 0.5, o.width = 0.5, o.height = 1.8, o.rcs_dbsm = -5.0;
  } else if (shape == ObjectShape::cone) {
    o.length = o.width = kCourseConeDiameter, o.height = kCourseConeHeight;
    o.rcs_dbsm = kCourseConeRcs;
  }
  return o;
}

/// The channels a start condition may name: the rig's, the scenario's markers, the objects'.
std::vector<std::string> condition_channels(const Scenario& s, const config::RigSpec& rig,
                                            const ScenarioSpec& out) {
  rt::ChannelTable universe;
  (void)config::add_rig_channels(universe, rig.vehicle);
  std::vector<std::string> names;
  for (const rt::ChannelSpec& spec : universe.specs()) names.push_back(spec.name);
  names.insert(names.end(), out.marker_channels.begin(), out.marker_channels.end());
  for (const Scenario::Object& o : s.objects()) {
    for (const char* c : {"x", "y", "z", "yaw", "speed", "moving"})
      names.push_back(fmt::format("world.{}.{}", o.name(), c));
  }
  return names;
}

void convert_path(const Scenario::Object& o, const std::string& at, const ToWorld& world,
                  const Checker& check, models::MovingObjectSpec& spec) {
  if (o.path_size() < 2) {
    check.fail(at + ".path", fmt::format("{} point(s); expected at least 2", o.path_size()));
    return;
  }
  double speed = 0.0;
  for (int k = 0; k < o.path_size(); ++k) {
    const Scenario::Waypoint& w = o.path(k);
    const std::string pt = fmt::format("{}.path[{}]", at, k);
    check.present(pt + ".x", w.has_x(), "the point's x in the course frame [m]");
    check.present(pt + ".y", w.has_y(), "the point's y in the course frame [m]");
    check.finite(pt + ".x", w.x());
    check.finite(pt + ".y", w.y());
    if (w.has_speed()) {
      speed = w.speed();
      check.in_range(pt + ".speed", speed, std::nextafter(0.0, 1.0), kMaxSpeed,
                     "0 < speed ≤ 100 (m/s)");
    } else if (k == 0) {
      check.fail(pt + ".speed", "missing; expected the speed from the first point on [m/s]");
    }
    if (k > 0 && w.x() == o.path(k - 1).x() && w.y() == o.path(k - 1).y())
      check.fail(pt, "the same point as the previous one; expected points apart");
    const auto [x, y] = world(w.x(), w.y());
    spec.path.push_back({.x = x, .y = y, .speed = speed});
  }
  if (o.has_x() || o.has_y() || o.has_yaw()) {
    check.fail(at + (o.has_x()   ? ".x"
                     : o.has_y() ? ".y"
                                 : ".yaw"),
               "a moving object starts at its path's first point, along it; expected no x, y, yaw");
  }
  spec.start.x = spec.path.front().x;
  spec.start.y = spec.path.front().y;
  spec.start.yaw = std::atan2(spec.path[1].y - spec.path[0].y, spec.path[1].x - spec.path[0].x);
}

void convert_start(const Scenario::Object& o, const std::string& at,
                   const std::vector<std::string>& channels, double duration, const Checker& check,
                   models::MovingObjectSpec& spec) {
  if (o.has_start_s() && o.has_start_when()) {
    check.fail(at + ".start_when", "both start_s and start_when; expected one");
  }
  if (o.has_start_s() && check.time(at + ".start_s", o.start_s(), duration))
    spec.start_s = o.start_s();
  if (!o.has_start_when()) return;
  std::string error;
  const std::optional<rt::ConditionText> c = rt::parse_condition(o.start_when(), error);
  if (!c) {
    check.fail(at + ".start_when", error);
    return;
  }
  if (std::find(channels.begin(), channels.end(), c->channel) == channels.end()) {
    const std::optional<std::string> near = config::closest_name(c->channel, channels);
    check.fail(at + ".start_when",
               fmt::format("\"{}\" is not a channel of the rig{}; expected one of its channels "
                           "(hilsim check --print), a marker or an object's",
                           c->channel, near ? fmt::format(" (did you mean {}?)", *near) : ""));
    return;
  }
  spec.start_when = o.start_when();
}

models::MovingObjectSpec convert_object(const Scenario::Object& o, const std::string& at,
                                        const ToWorld& world,
                                        const std::vector<std::string>& channels, double duration,
                                        const Checker& check) {
  const bool moves = o.path_size() > 0;
  ObjectKind kind = moves ? ObjectKind::vehicle : ObjectKind::obstacle;
  if (o.kind() == Scenario::Object::OBSTACLE) kind = ObjectKind::obstacle;
  if (o.kind() == Scenario::Object::VEHICLE) kind = ObjectKind::vehicle;
  if (o.kind() == Scenario::Object::PEDESTRIAN) kind = ObjectKind::pedestrian;
  ObjectShape shape = kind == ObjectKind::pedestrian ? ObjectShape::cylinder : ObjectShape::box;
  if (o.shape() == Scenario::Object::BOX) shape = ObjectShape::box;
  if (o.shape() == Scenario::Object::CYLINDER) shape = ObjectShape::cylinder;
  if (o.shape() == Scenario::Object::CONE) shape = ObjectShape::cone;

  models::MovingObjectSpec spec;
  spec.object = defaults(kind, shape);
  spec.object.name = o.name();
  const auto size = [&](const char* field, bool has, double value, double& to) {
    if (has && check.in_range(fmt::format("{}.{}", at, field), value, std::nextafter(0.0, 1.0),
                              kMaxSize, "0 < size ≤ 1000 (m)")) {
      to = value;
    }
  };
  size("length", o.has_length(), o.length(), spec.object.length);
  size("width", o.has_width(), o.width(), spec.object.width);
  size("height", o.has_height(), o.height(), spec.object.height);
  if (o.has_rcs_dbsm() &&
      check.in_range(at + ".rcs_dbsm", o.rcs_dbsm(), -100.0, 100.0, "-100..100 (dBsm)")) {
    spec.object.rcs_dbsm = o.rcs_dbsm();
  }
  if (!moves) {
    check.finite(at + ".x", o.x());
    check.finite(at + ".y", o.y());
    check.finite(at + ".yaw", o.yaw());
    const auto [x, y] = world(o.x(), o.y());
    spec.start = {.x = x, .y = y, .yaw = o.yaw() + world.yaw0};
    for (const auto& [has, field] : {std::pair{o.has_start_s(), "start_s"},
                                     {o.has_start_when(), "start_when"},
                                     {o.has_max_acceleration(), "max_acceleration"}}) {
      if (has) check.fail(fmt::format("{}.{}", at, field), "only for a moving object (a path)");
    }
    return spec;
  }
  if (o.kind() == Scenario::Object::OBSTACLE)
    check.fail(at + ".kind",
               "an obstacle does not move; expected no path (or kind VEHICLE, PEDESTRIAN)");
  convert_path(o, at, world, check, spec);
  convert_start(o, at, channels, duration, check, spec);
  spec.max_acceleration = kDefaultAccel;
  if (o.has_max_acceleration() &&
      check.in_range(at + ".max_acceleration", o.max_acceleration(), std::nextafter(0.0, 1.0),
                     kMaxAccel, "0 < a ≤ 100 (m/s²)")) {
    spec.max_acceleration = o.max_acceleration();
  }
  return spec;
}

}  // namespace

std::vector<CoursePoint> lane_gate_cones(const std::vector<GateSpec>& gates) {
  std::vector<CoursePoint> cones;
  for (const GateSpec& g : gates) {
    const auto* lane = std::get_if<LaneGate>(&g.check);
    if (lane == nullptr) continue;
    const int n =
        std::max(1, static_cast<int>(std::ceil((lane->x_max - lane->x_min) / kCourseConeSpacing)));
    for (int i = 0; i <= n; ++i) {
      const double x = lane->x_min + (lane->x_max - lane->x_min) * i / n;
      cones.push_back({.x = x, .y = lane->y_min});
      cones.push_back({.x = x, .y = lane->y_max});
    }
  }
  return cones;
}

void convert_objects(const Scenario& s, const config::RigSpec& rig, const Checker& check,
                     ScenarioSpec& out) {
  const ToWorld world(out.start);
  std::set<std::string> names;
  const bool conditions = std::ranges::any_of(
      s.objects(), [](const Scenario::Object& o) { return o.has_start_when(); });
  const std::vector<std::string> channels =
      conditions ? condition_channels(s, rig, out) : std::vector<std::string>{};
  for (int i = 0; i < s.objects_size(); ++i) {
    const std::string at = fmt::format("objects[{}]", i);
    const Scenario::Object& o = s.objects(i);
    if (!check.present(at + ".name", o.has_name(), "a unique lower snake case name")) continue;
    if (!lower_snake_name(o.name())) {
      check.fail(at + ".name", fmt::format("\"{}\": expected a lower snake case name (its "
                                           "channels are world.<name>.*)",
                                           o.name()));
    } else if (!names.insert(o.name()).second) {
      check.fail(at + ".name", fmt::format("\"{}\" is not unique", o.name()));
    }
    out.objects.push_back(convert_object(o, at, world, channels, out.duration_s, check));
  }
  // The course's cones, named after the objects the file gives
  const std::vector<CoursePoint> cones = lane_gate_cones(out.gates);
  for (std::size_t i = 0; i < cones.size(); ++i) {
    models::MovingObjectSpec cone;
    cone.object = defaults(ObjectKind::obstacle, ObjectShape::cone);
    cone.object.name = fmt::format("cone_{}", i + 1);
    cone.course_cone = true;
    const auto [x, y] = world(cones[i].x, cones[i].y);
    cone.start = {.x = x, .y = y, .yaw = out.start.yaw};
    if (names.contains(cone.object.name)) {
      for (int k = 0; k < s.objects_size(); ++k) {
        if (s.objects(k).name() == cone.object.name)
          check.fail(
              fmt::format("objects[{}].name", k),
              fmt::format("\"{}\" is the name of one of the course's cones", cone.object.name));
      }
    }
    out.objects.push_back(std::move(cone));
  }
}

}  // namespace hil::config
