#pragma once
// The controller logic of the virtual ECU (docs/ecu.md "Driver"), once per ECU cycle on the
// ECU's channel table (the rig's channel names: what the rig sends are inputs, what it
// receives outputs). It reads the pose the rig sends (vehicle.body.position.x|y,
// vehicle.body.yaw) and a speed (vehicle.body.forward_speed, else the wheel speeds), follows
// the scenario's path — with the Stanley controller on the front axle for a vehicle steered
// there alone (and the yaw rate it sends), else with the PID path follower — and its speed
// plan, and writes commands for the rig's drive:
//   electric    vehicle.wheel.W.speed_ref: each wheel's speed about the instantaneous centre
//   combustion  vehicle.powertrain.throttle | vehicle.brake.command from a speed cascade,
//               vehicle.powertrain.gear_request = 1 (D)
//   both        vehicle.steering.A.command per steered axle (Ackermann central angles),
//               vehicle.brake.park while holding at standstill
// Commands the rig does not receive are not written.
// HUMAN mode (a driver in the loop, docs/ecu.md "HUMAN mode"): step_human() drives from the
// driver's controls instead — the path follower off, the steering's share as curvature, the
// throttle and brake as a speed demand (electric) or as the pedals (combustion); the next step()
// finds the vehicle on the path again wherever it went and follows it from there.
// Setup: the constructor (throws std::runtime_error naming a channel the drive needs and the rig
// does not map); step(), step_human() and hold() are RT: no allocation, no exceptions. Not
// thread-safe: one RT thread.

#include <array>
#include <cstddef>
#include <optional>

#include "config/scenario/scenario_spec.hpp"
#include "models/vehicle/capacities.hpp"
#include "models/vehicle/vehicle_params.hpp"
#include "rt_core/channel_table.hpp"
#include "runtime/scenario/course_frame.hpp"
#include "runtime/scenario/course_path.hpp"
#include "tools/ecu/path_follower.hpp"
#include "tools/ecu/speed_controller.hpp"
#include "tools/ecu/speed_plan.hpp"
#include "tools/ecu/stanley_follower.hpp"
#include "tools/ecu/vehicle_geometry.hpp"

namespace hil::ecu {

/// What the driver did in its last cycle.
struct DriverStatus {
  double time = 0.0;            ///< scenario time [s]
  double speed_target = 0.0;    ///< [m/s]
  double speed_ref = 0.0;       ///< rate-limited reference [m/s]
  double speed_measured = 0.0;  ///< [m/s]
  double curvature = 0.0;       ///< commanded [1/m]
  double cross_track = 0.0;     ///< of the reference point [m]
  double progress = 0.0;        ///< arc length along the path [m]
  bool parked = true;           ///< holding at standstill
};

/// The driver's controls (the rig's driver.steer, driver.throttle, driver.brake).
struct HumanControls {
  double steer = 0.0;     ///< −1..1: a share of the steering's reach, + = left
  double throttle = 0.0;  ///< 0..1
  double brake = 0.0;     ///< 0..1
};

class Driver {
 public:
  /// `table`: the ECU's table, frozen; `cycle_s`: the control period [s].
  Driver(const models::VehicleParams& vehicle, const config::ScenarioSpec& scenario,
         const rt::ChannelTable& table, double cycle_s);

  /// RT: one control cycle at scenario time `t` [s].
  void step(double t, rt::ChannelTable& table) noexcept;
  /// RT: one control cycle in HUMAN mode: curvature steer·κ_max; electric: the speed reference
  /// follows throttle·`max_speed` [m/s] at the plan's acceleration, and the brake takes it down
  /// at up to 3 m/s² (full pedal); combustion: the throttle above idle and the brake pedal as
  /// they are, in D. The parking brake holds while stopped with nothing asked.
  void step_human(const HumanControls& controls, double max_speed,
                  rt::ChannelTable& table) noexcept;
  /// The last cycle was step_human().
  [[nodiscard]] bool human() const noexcept { return human_; }
  /// RT: stop and hold (no valid inputs yet, or they went missing): speeds 0, throttle 0,
  /// brakes and parking brake on, steering where it is.
  void hold(rt::ChannelTable& table) noexcept;

  [[nodiscard]] const DriverStatus& status() const noexcept { return status_; }
  /// The pose channels it reads.
  [[nodiscard]] rt::ChannelId pose_x() const noexcept { return x_; }
  [[nodiscard]] rt::ChannelId pose_y() const noexcept { return y_; }
  [[nodiscard]] rt::ChannelId pose_yaw() const noexcept { return yaw_; }
  [[nodiscard]] const VehicleGeometry& geometry() const noexcept { return geometry_; }
  [[nodiscard]] const PathFollower& follower() const noexcept { return follower_; }

 private:
  [[nodiscard]] double measured_speed(const rt::ChannelTable& table) const noexcept;
  void command_drive(double speed_ref, double kappa, bool parked, rt::ChannelTable& table) noexcept;
  static void set(rt::ChannelTable& table, const std::optional<rt::ChannelId>& id,
                  double value) noexcept {
    if (id) table.set(*id, value);
  }

  VehicleGeometry geometry_;
  models::DriveKind drive_;
  runtime::CourseFrame frame_;
  runtime::CoursePath path_;
  SpeedPlan plan_;
  PathFollower follower_;
  /// A vehicle steered at its front axle alone steers by Stanley on that axle's errors
  std::optional<StanleyFollower> stanley_;
  double front_x_ = 0.0, front_b_ = 1.0;  ///< the front axle's x and Ackermann b [m]
  double cycle_s_;
  // Combustion speed cascade (pedal u: throttle u > 0, brake −u·brake_scale_)
  SpeedController speed_;
  double brake_scale_ = 1.0;
  models::EngineParams engine_;  ///< its idle governor: the throttle's dead band

  // Inputs
  rt::ChannelId x_{}, y_{}, yaw_{};
  std::optional<rt::ChannelId> forward_speed_, engine_speed_, yaw_rate_;
  std::array<std::optional<rt::ChannelId>, models::kMaxWheels> wheel_speed_{};
  // Outputs
  std::array<std::optional<rt::ChannelId>, models::kMaxWheels> speed_ref_{};
  std::array<std::optional<rt::ChannelId>, models::kMaxAxles> steer_{};
  std::optional<rt::ChannelId> park_, throttle_, brake_, gear_;

  std::size_t hint_ = 0, front_hint_ = 0;
  bool located_ = false;
  bool human_ = false;  ///< the last cycle was HUMAN: step() finds the path again first
  double last_s_ = 0.0;
  DriverStatus status_;
};

}  // namespace hil::ecu
