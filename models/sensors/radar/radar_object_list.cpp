#include "models/sensors/radar/radar_object_list.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <Eigen/Geometry>

namespace hil::models::radar {
namespace {

/// The point of the object's footprint nearest to `s` in the ground plane, at s's height
/// clamped to the object's vertical extent.
Eigen::Vector3d nearest_point(const WorldObject& o, const ObjectState& st,
                              const Eigen::Vector3d& s) noexcept {
  const double dx = s.x() - st.x;
  const double dy = s.y() - st.y;
  double px = st.x;
  double py = st.y;
  if (o.shape == ObjectShape::box) {  // the rectangle L × W turned by yaw: clamp in its axes
    const double c = std::cos(st.yaw);
    const double n = std::sin(st.yaw);
    const double u = std::clamp(c * dx + n * dy, -0.5 * o.length, 0.5 * o.length);
    const double w = std::clamp(-n * dx + c * dy, -0.5 * o.width, 0.5 * o.width);
    px += c * u - n * w;
    py += n * u + c * w;
  } else {  // cylinder, cone: the base circle
    const double r = 0.5 * o.width;
    const double d = std::hypot(dx, dy);
    const double k = d > r ? r / d : 1.0;
    px += k * dx;
    py += k * dy;
  }
  return {px, py, std::clamp(s.z(), st.z, st.z + o.height)};
}

DynamicProperty dynamic_property(const Eigen::Vector3d& v_over_ground_sensor,
                                 bool seen_moving) noexcept {
  const double along = v_over_ground_sensor.x();
  const double across = v_over_ground_sensor.y();
  if (std::hypot(along, across) <= kMovingSpeed) {
    return seen_moving ? DynamicProperty::stopped : DynamicProperty::stationary;
  }
  if (std::abs(across) > std::abs(along)) return DynamicProperty::crossing_moving;
  return along < 0.0 ? DynamicProperty::oncoming : DynamicProperty::moving;
}

}  // namespace

RadarObjectList::RadarObjectList(RadarParams params, std::size_t object_count, std::uint64_t seed)
    : params_(std::move(params)), noise_(seed), ids_(object_count), seen_moving_(object_count, 0) {
  candidates_.reserve(object_count);
}

std::span<const RadarObject> RadarObjectList::measure(
    const CarrierState& carrier, std::span<const WorldObject> objects,
    std::span<const ObjectState> states) noexcept {
  const std::size_t n = std::min({objects.size(), states.size(), seen_moving_.size()});
  const Eigen::Matrix3d body = attitude(carrier.roll, carrier.pitch, carrier.yaw);
  const SensorPose pose = sensor_pose(carrier.position, body, params_.mount);
  const Eigen::Matrix3d to_sensor = pose.rotation.transpose();  // world → sensor
  const Eigen::Vector3d& origin = pose.origin;
  // The mount's velocity: v_CG + ω × r (rigid body), ω and r in body axes
  const Eigen::Vector3d v_sensor =
      carrier.velocity + body * carrier.angular_velocity.cross(params_.mount.position);
  const double half_fov = 0.5 * params_.fov_azimuth;

  candidates_.clear();  // capacity object_count: no allocation
  for (std::size_t i = 0; i < n; ++i) {
    const ObjectState& st = states[i];
    const Eigen::Vector3d q = to_sensor * (nearest_point(objects[i], st, origin) - origin);
    const double range = std::hypot(q.x(), q.y());
    if (range > params_.range_max || std::abs(std::atan2(q.y(), q.x())) > half_fov) continue;
    const Eigen::Vector3d v_object(st.vx, st.vy, 0.0);
    const Eigen::Vector3d v_rel = to_sensor * (v_object - v_sensor);
    candidates_.push_back(
        RadarObject{.target = static_cast<std::uint32_t>(i),
                    .range = range,
                    .dist_long = q.x(),
                    .dist_lat = q.y(),
                    .vrel_long = v_rel.x(),
                    .vrel_lat = v_rel.y(),
                    .rcs_dbsm = objects[i].rcs_dbsm,
                    .dynamic = dynamic_property(to_sensor * v_object, seen_moving_[i] != 0)});
  }
  std::sort(candidates_.begin(), candidates_.end(), [](const RadarObject& a, const RadarObject& b) {
    return a.range != b.range ? a.range < b.range : a.target < b.target;  // ties: a fixed order
  });
  listed_ = std::min<std::size_t>(candidates_.size(), params_.max_objects);

  ids_.begin_cycle();
  for (std::size_t k = 0; k < listed_; ++k) {
    RadarObject& o = candidates_[k];
    o.id = ids_.assign(o.target);
    if (o.dynamic != DynamicProperty::stationary && o.dynamic != DynamicProperty::stopped) {
      seen_moving_[o.target] = 1;
    }
    o.dist_long += noise_(params_.distance_noise);
    o.dist_lat += noise_(params_.distance_noise);
    o.vrel_long += noise_(params_.velocity_noise);
    o.vrel_lat += noise_(params_.velocity_noise);
  }
  ids_.end_cycle();
  for (std::size_t t = 0; t < seen_moving_.size(); ++t) {
    if (ids_.id_of(t) < 0) seen_moving_[t] = 0;  // its track ended
  }
  return {candidates_.data(), listed_};
}

}  // namespace hil::models::radar
