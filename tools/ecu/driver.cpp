#include "tools/ecu/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/vehicle/vehicle_channels.hpp"

namespace hil::ecu {

namespace {

/// Both pedals at full travel ask for about this much acceleration [m/s²]: the scale of the
/// combustion speed PI's pedal (docs/ecu.md "Driver").
constexpr double kFullPedalAcceleration = 3.0;
constexpr double kStandstillSpeed = 0.05;  ///< below this the vehicle counts as at rest [m/s]
/// Brake command while stopping at the end of a deceleration and at standstill [-].
constexpr double kHoldBrake = 0.5;

rt::ChannelId required(const rt::ChannelTable& table, const std::string& name, const char* why) {
  const std::optional<rt::ChannelId> id = table.find(name);
  if (!id) {
    throw std::runtime_error(fmt::format(
        "the virtual ECU needs the channel {} ({}), but the rig's CAN mapping does not carry it",
        name, why));
  }
  return *id;
}

PathFollowerGains follower_gains(const config::ControllerSpec& c, double wheelbase,
                                 double max_speed) {
  // Converge over about two wheelbases, longer at speed (the steering lags ~0.6 s)
  PathFollowerGains g =
      PathFollowerGains::for_distance(std::max({2.0 * wheelbase, 0.6 * max_speed, 2.0}));
  if (c.kp) g.kp = *c.kp;
  if (c.ki) g.ki = *c.ki;
  if (c.kd) g.kd = *c.kd;
  return g;
}

SpeedControlGains speed_gains(const config::ControllerSpec& c) {
  SpeedControlGains g;
  g.max_accel = kFullPedalAcceleration;
  if (c.speed_gain) g.speed_gain = *c.speed_gain;
  if (c.pedal_kp) g.pedal_kp = *c.pedal_kp;
  if (c.pedal_ki) g.pedal_ki = *c.pedal_ki;
  return g;
}

StanleyGains stanley_gains(const config::ControllerSpec& c) {
  StanleyGains g;
  if (c.stanley_k) g.k = *c.stanley_k;
  if (c.stanley_k_soft) g.k_soft = *c.stanley_k_soft;
  if (c.stanley_k_yaw) g.k_yaw = *c.stanley_k_yaw;
  if (c.stanley_k_ag) g.k_ag = *c.stanley_k_ag;
  return g;
}

}  // namespace

Driver::Driver(const models::VehicleParams& vehicle, const config::ScenarioSpec& scenario,
               const rt::ChannelTable& table, double cycle_s)
    : geometry_(vehicle),
      drive_(vehicle.drive.kind),
      frame_(scenario.start),
      path_(scenario.drive.path),
      plan_(scenario.drive, path_),
      follower_(follower_gains(scenario.controller, geometry_.wheelbase(), plan_.max_speed()),
                geometry_.max_curvature()),
      cycle_s_(cycle_s),
      speed_(speed_gains(scenario.controller), cycle_s) {
  using models::VehicleChannels;
  const std::size_t axles = vehicle.axle_count;
  x_ = required(table, "vehicle.body.position.x", "the pose the rig sends");
  y_ = required(table, "vehicle.body.position.y", "the pose the rig sends");
  yaw_ = required(table, "vehicle.body.yaw", "the pose the rig sends");
  forward_speed_ = table.find("vehicle.body.forward_speed");
  yaw_rate_ = table.find("vehicle.body.yaw_rate");
  if (!yaw_rate_) yaw_rate_ = table.find("vehicle.imu.gyro.z");
  std::size_t steered_axles = 0;
  for (std::size_t a = 0; a < vehicle.axle_count; ++a) {
    steered_axles += vehicle.axles[a].steering.steered ? 1 : 0;
  }
  const models::AxleSteeringParams& front = vehicle.axles[0].steering;
  if (steered_axles == 1 && front.steered && !front.behind_turning_centre) {
    front_x_ = vehicle.axles[0].x;
    front_b_ = front.ackermann.b;
    const double rear_x = vehicle.axles[vehicle.axle_count - 1].x;
    stanley_.emplace(stanley_gains(scenario.controller), geometry_.wheelbase(),
                     std::atan(geometry_.max_curvature() * front_b_),
                     /*tracked: the CG*/ -rear_x);
  }
  bool any_wheel_speed = false;
  for (std::size_t w = 0; w < vehicle.wheel_count(); ++w) {
    const std::string W = VehicleChannels::wheel_name(w, axles);
    wheel_speed_[w] = table.find(fmt::format("vehicle.wheel.{}.speed", W));
    any_wheel_speed = any_wheel_speed || wheel_speed_[w].has_value();
    if (drive_ == models::DriveKind::electric) {
      speed_ref_[w] = required(table, fmt::format("vehicle.wheel.{}.speed_ref", W),
                               "the electric drive's wheel speed reference");
    }
  }
  for (std::size_t a = 0; a < axles; ++a) {
    if (!vehicle.axles[a].steering.steered) continue;
    steer_[a] = table.find(
        fmt::format("vehicle.steering.{}.command", VehicleChannels::axle_name(a, axles)));
  }
  park_ = table.find("vehicle.brake.park");
  if (drive_ == models::DriveKind::combustion) {
    throttle_ = required(table, "vehicle.powertrain.throttle", "the combustion drive's throttle");
    brake_ = required(table, "vehicle.brake.command", "the brake of the speed control");
    gear_ = table.find("vehicle.powertrain.gear_request");
    engine_speed_ = table.find("vehicle.powertrain.engine_speed");
    engine_ = vehicle.drive.combustion.engine;
    if (!forward_speed_ && !any_wheel_speed) {
      (void)required(table, "vehicle.body.forward_speed", "the speed control's feedback");
    }
    double brake_force = 0.0;  // at brake command 1 [N]
    double mass = vehicle.sprung.mass;
    for (std::size_t w = 0; w < vehicle.wheel_count(); ++w) {
      brake_force += vehicle.axles[w / 2].brake.max_torque / geometry_.rolling_radius(w);
      mass += vehicle.axles[w / 2].unsprung_mass;
    }
    if (brake_force > 0.0)
      brake_scale_ = std::min(1.0, kFullPedalAcceleration * mass / brake_force);
  } else if (drive_ == models::DriveKind::torque) {
    throw std::runtime_error(
        "the virtual ECU drives electric and combustion rigs; this rig's drive is \"torque\"");
  }
}

double Driver::measured_speed(const rt::ChannelTable& table) const noexcept {
  if (forward_speed_) return table.get(*forward_speed_);
  double sum = 0.0;
  int n = 0;
  for (std::size_t w = 0; w < geometry_.wheel_count(); ++w) {
    if (!wheel_speed_[w]) continue;
    sum += table.get(*wheel_speed_[w]) * geometry_.rolling_radius(w);
    ++n;
  }
  return n > 0 ? sum / n : status_.speed_ref;
}

void Driver::command_drive(double speed_ref, double kappa, bool parked,
                           rt::ChannelTable& table) noexcept {
  for (std::size_t a = 0; a < geometry_.axle_count(); ++a) {
    set(table, steer_[a], geometry_.central_angle(a, kappa));
  }
  set(table, park_, parked ? 1.0 : 0.0);
  if (drive_ == models::DriveKind::electric) {
    for (std::size_t w = 0; w < geometry_.wheel_count(); ++w) {
      set(table, speed_ref_[w], parked ? 0.0 : geometry_.wheel_speed(w, speed_ref, kappa));
    }
    return;
  }
  // Stopping (the reference has reached zero) or stopped: hold on the brakes, as a driver
  // holds the pedal against the torque converter's creep; otherwise the speed cascade's pedal
  const bool stopping = parked || (speed_ref == 0.0 && status_.speed_target == 0.0);
  const double ref_accel = (speed_ref - status_.speed_ref) / cycle_s_;
  const double u = stopping ? -1.0 : speed_.update(speed_ref, ref_accel, status_.speed_measured);
  if (stopping) speed_.reset();
  // The pedal acts above what the idle governor gives at this engine speed (a drive-by-wire
  // pedal asks for torque above idle): no dead band at the bottom of the throttle
  const double idle =
      engine_speed_ ? models::engine_throttle(engine_, 0.0, table.get(*engine_speed_)) : 0.0;
  set(table, throttle_, u > 0.0 ? std::min(1.0, idle + u) : 0.0);
  set(table, brake_, stopping ? kHoldBrake : std::max(-u, 0.0) * brake_scale_);
  set(table, gear_, 1.0);  // D
}

void Driver::step(double t, rt::ChannelTable& table) noexcept {
  if (human_) {  // back from HUMAN: find the path again, from the speed the driver left
    human_ = false;
    located_ = false;
    follower_.reset();
    speed_.reset();
    status_.speed_ref = std::max(0.0, status_.speed_measured);
  }
  const runtime::CoursePose cg = frame_.to_course(table.get(x_), table.get(y_), table.get(yaw_));
  const runtime::CoursePose reference = offset(cg, geometry_.reference_x(), 0.0);
  const bool first = !located_;
  const runtime::PathSample at = located_ ? path_.project(reference.x, reference.y, hint_)
                                          : path_.project_global(reference.x, reference.y, hint_);
  const double ds = located_ ? at.s - last_s_ : 0.0;
  located_ = true;
  last_s_ = at.s;

  const double measured = measured_speed(table);
  const double target = plan_.target(t, at);
  const double speed_ref = plan_.follow(status_.speed_ref, target, cycle_s_);
  double kappa = 0.0;
  if (stanley_) {
    const runtime::CoursePose axle = offset(cg, front_x_, 0.0);
    const runtime::PathSample front = first ? path_.project_global(axle.x, axle.y, front_hint_)
                                            : path_.project(axle.x, axle.y, front_hint_);
    const double r = yaw_rate_ ? table.get(*yaw_rate_) : measured * front.curvature;
    kappa = std::tan(stanley_->update(front, cg.heading, measured, r)) / front_b_;
  } else {
    kappa = follower_.update(at, cg.heading, ds);
  }
  const bool parked = target == 0.0 && speed_ref == 0.0 && std::abs(measured) < kStandstillSpeed;

  status_.time = t;
  status_.speed_measured = measured;
  status_.speed_target = target;
  command_drive(speed_ref, kappa, parked, table);  // reads the last cycle's speed_ref
  status_.speed_ref = speed_ref;
  status_.curvature = kappa;
  status_.cross_track = at.cross_track;
  status_.progress = at.s;
  status_.parked = parked;
}

void Driver::step_human(const HumanControls& c, double max_speed,
                        rt::ChannelTable& table) noexcept {
  if (!human_) speed_.reset();  // the pedals' cascade starts from nothing
  human_ = true;
  const double steer = std::clamp(c.steer, -1.0, 1.0);
  const double throttle = std::clamp(c.throttle, 0.0, 1.0);
  const double brake = std::clamp(c.brake, 0.0, 1.0);
  const double measured = measured_speed(table);
  const double kappa = steer * geometry_.max_curvature();
  const bool at_rest = std::abs(measured) < kStandstillSpeed;
  double target = 0.0;
  double speed_ref = status_.speed_ref;
  bool parked = false;
  if (drive_ == models::DriveKind::electric) {
    target = throttle * max_speed;
    if (brake > 0.0) {  // the brake takes the demand down, at 3 m/s² with the full pedal
      speed_ref = std::max(0.0, speed_ref - brake * kFullPedalAcceleration * cycle_s_);
      target = std::min(target, speed_ref);
    } else {
      speed_ref = plan_.follow(speed_ref, target, cycle_s_);
    }
    parked = target == 0.0 && speed_ref == 0.0 && at_rest;
    command_drive(speed_ref, kappa, parked, table);
  } else {  // the pedals as the driver holds them; the steering as the path follower's
    parked = throttle == 0.0 && at_rest;
    for (std::size_t a = 0; a < geometry_.axle_count(); ++a) {
      set(table, steer_[a], geometry_.central_angle(a, kappa));
    }
    set(table, park_, parked ? 1.0 : 0.0);
    const double idle =
        engine_speed_ ? models::engine_throttle(engine_, 0.0, table.get(*engine_speed_)) : 0.0;
    set(table, throttle_, throttle > 0.0 ? std::min(1.0, idle + throttle) : 0.0);
    set(table, brake_, brake);
    set(table, gear_, 1.0);  // D
    speed_ref = measured;
  }
  status_.speed_measured = measured;
  status_.speed_target = target;
  status_.speed_ref = speed_ref;
  status_.curvature = kappa;
  status_.parked = parked;
}

void Driver::hold(rt::ChannelTable& table) noexcept {
  set(table, park_, 1.0);
  for (std::size_t w = 0; w < geometry_.wheel_count(); ++w) set(table, speed_ref_[w], 0.0);
  set(table, throttle_, 0.0);
  set(table, brake_, 1.0);
  speed_.reset();
  status_.speed_ref = 0.0;
  status_.speed_target = 0.0;
  status_.parked = true;
}

}  // namespace hil::ecu
