#include "models/vehicle/vehicle.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "models/math/vector_math.hpp"
#include "models/sensors/sensor_noise.hpp"
#include "models/sensors/wheel_encoder.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models {

namespace {

using L = VehicleLayout;
using B = RigidBodyLayout;

/// Whether every value of x is finite: no exponent of all ones (±∞, NaN). Branch-free over the
/// bits, which the compiler vectorises (Eigen's allFinite() branches on every value).
bool all_finite(const VehicleState& x) noexcept {
  constexpr std::uint64_t kExponent = 0x7ff0'0000'0000'0000;
  bool finite = true;
  for (const double v : x) finite &= (std::bit_cast<std::uint64_t>(v) & kExponent) != kExponent;
  return finite;
}

}  // namespace

Vehicle::Vehicle(const VehicleParams& params, const Terrain& terrain)
    : model_(params, terrain),
      x_(VehicleState::Zero()),
      imu_(params.sensors.imu, derive_seed(params.seed, "imu")),
      gnss_(params.sensors.gnss, derive_seed(params.seed, "gnss")) {
  reset(0.0, 0.0, 0.0, 0.0);
}

void Vehicle::reset(double x, double y, double yaw, double speed) {
  const VehicleParams& p = model_.params();
  x_ = model_.rest_state(x, y, yaw, speed);
  imu_ = Imu(p.sensors.imu, derive_seed(p.seed, "imu"));
  gnss_ = Gnss(p.sensors.gnss, derive_seed(p.seed, "gnss"));
  out_ = VehicleOutputs{};
  external_voltage_ = p.drive.kind == DriveKind::electric
                          ? electric_drive_rest_voltage(p.drive.electric, p.drive.initial_soc)
                          : 0.0;
  at_rest_with_drive_off();
  out_.tick = 0;
  out_.time = 0.0;
  last_finite_pose_ = {.x = x, .y = y, .yaw = yaw};
}

void Vehicle::take_inputs(const VehicleInputs& inputs) noexcept {
  inputs_ = inputs;
  rejected_taken_ = 0;
  const VehicleParams& p = model_.params();
  if (out_.safe_state || p.drive.kind != DriveKind::electric) return;
  for (std::size_t i = 0; i < model_.wheel_count(); ++i) {
    // A non-finite reference holds the last one (and counts as rejected)
    if (std::isfinite(inputs.speed_ref[i])) {
      speed_ref_[i] = inputs.speed_ref[i];
    } else {
      ++rejected_taken_;
    }
  }
  if (p.drive.electric.external_battery) {
    // Co-simulation coupling (RAVON §3.6): the voltage received now is held over the step;
    // a non-finite one holds the last (and counts as rejected), a negative one is 0
    if (std::isfinite(inputs.external_battery_voltage)) {
      external_voltage_ = std::max(0.0, inputs.external_battery_voltage);
    } else {
      ++rejected_taken_;
    }
  }
}

void Vehicle::control() noexcept {
  const VehicleParams& p = model_.params();
  if (out_.safe_state || p.drive.kind != DriveKind::electric) return;
  WheelValues omega{};
  for (std::size_t i = 0; i < model_.wheel_count(); ++i) omega[i] = x_[L::spin(i)];
  const auto drive_state = x_.segment<L::kDriveSize>(L::kDrive);
  (void)electric_drive_controller_sample(p.drive.electric, drive_controller_,
                                         drive_state.template head<ElectricDriveLayout::kSize>(),
                                         omega, speed_ref_, p.dt, external_voltage_);
}

std::uint32_t Vehicle::controller_decimation() const noexcept {
  const VehicleParams& p = model_.params();
  return p.drive.kind == DriveKind::electric
             ? static_cast<std::uint32_t>(std::max(p.drive.electric.controller_decimation, 1))
             : 1U;
}

bool Vehicle::controller_due(std::int64_t tick) const noexcept {
  return tick % controller_decimation() == 0;
}

void Vehicle::step(const VehicleInputs& inputs) noexcept {
  take_inputs(inputs);
  if (controller_due(out_.tick)) control();
  advance(out_.tick);
}

void Vehicle::advance(std::int64_t tick) noexcept {
  if (out_.safe_state) {
    hold_safe_state(tick);
    return;
  }
  const VehicleParams& p = model_.params();
  StepInputs in = model_.prepare(inputs_);
  in.rejected += rejected_taken_;
  drive_inputs(in);
  const VehicleState before = x_;
  const int substeps = p.substeps();
  const double h = p.dt / substeps;
  for (int sub = 0; sub < substeps; ++sub) {
    int stage = 0;
    const auto f = [&](double, const VehicleState& s) noexcept {
      // Diagnostics of the step's first stage: the state at the start of the step
      return model_.derivative(in, s, (sub == 0 && stage++ == 0) ? &diag_ : nullptr);
    };
    x_ = rt::rk4_step(f, 0.0, x_, h);
    x_.segment<4>(B::kAttitude).normalize();  // RK4 does not keep |q| = 1 exactly
  }
  out_.tick = tick + 1;
  out_.time = static_cast<double>(out_.tick) * p.dt;
  if (!all_finite(x_)) {  // a broken invariant: cheap to detect, always on (DESIGN.md §5)
    enter_safe_state();
    return;
  }
  update_outputs(before, in);
  last_finite_pose_ = {.x = out_.position.x(), .y = out_.position.y(), .yaw = out_.yaw};
}

void Vehicle::enter_safe_state() noexcept {
  if (out_.safe_state) return;
  out_.safe_state = true;
  out_.safe_state_since = out_.time;
  ++out_.safe_state_entries;
  const Pose& at = last_finite_pose_;
  const bool finite = std::isfinite(at.x) && std::isfinite(at.y) && std::isfinite(at.yaw);
  x_ = finite ? model_.rest_state(at.x, at.y, at.yaw, 0.0) : model_.rest_state(0, 0, 0, 0);
  diag_ = StageDiagnostics{};
  at_rest_with_drive_off();
}

void Vehicle::at_rest_with_drive_off() noexcept {
  drive_controller_ = ElectricDriveControllerState{};
  powertrain_ = powertrain_initial_discrete_state(model_.powertrain());
  speed_ref_.fill(0.0);
  lever_pressed_ = false;
  const VehicleState at_rest = x_;
  update_outputs(at_rest, model_.prepare(VehicleInputs{}));
}

void Vehicle::hold_safe_state(std::int64_t tick) noexcept {
  out_.tick = tick + 1;
  out_.time = static_cast<double>(out_.tick) * model_.params().dt;
  const VehicleState at_rest = x_;
  update_outputs(at_rest, model_.prepare(VehicleInputs{}));
}

void Vehicle::drive_inputs(StepInputs& in) noexcept {
  const VehicleParams& p = model_.params();
  const VehicleInputs& inputs = inputs_;
  const auto drive_state = x_.segment<L::kDriveSize>(L::kDrive);
  switch (p.drive.kind) {
    case DriveKind::electric:
      in.external_voltage = external_voltage_;
      in.duty = drive_controller_.duty;  // held since the controllers' last sample
      break;
    case DriveKind::combustion: {
      const PowertrainParams& pt = model_.powertrain();
      PowertrainCommand command{.throttle = inputs.throttle,
                                .shift_up = inputs.shift_up > 0.5,
                                .shift_down = inputs.shift_down > 0.5};
      if (!std::isfinite(inputs.throttle)) ++in.rejected;
      // An absolute gear request becomes lever presses, one every other tick
      const int gear = powertrain_.transmission.gear;
      const int position =
          pt.transmission.mode == ShiftMode::automatic ? std::clamp(gear, -1, 1) : gear;
      if (std::isfinite(inputs.gear_request) && !lever_pressed_) {
        const auto request = static_cast<int>(std::lround(inputs.gear_request));
        command.shift_up = command.shift_up || request > position;
        command.shift_down = command.shift_down || request < position;
      }
      lever_pressed_ = std::isfinite(inputs.gear_request) && !lever_pressed_ &&
                       (command.shift_up || command.shift_down);
      powertrain_update(pt, powertrain_, drive_state.template head<PowertrainLayout::kSize>(),
                        command, p.dt);
      in.powertrain = powertrain_;
      break;
    }
    case DriveKind::torque:
      break;
  }
}

void Vehicle::update_outputs(const VehicleState& before, const StepInputs& in) noexcept {
  const VehicleParams& p = model_.params();
  const Eigen::Quaterniond q = attitude(x_.head<B::kSize>());
  const Eigen::Matrix3d R = q.toRotationMatrix();
  const Eigen::Matrix3d Rt = R.transpose();
  const Eigen::Vector3d v = x_.segment<3>(B::kVelocity);
  const Eigen::Vector3d w = x_.segment<3>(B::kAngularVelocity);

  out_.position = x_.segment<3>(B::kPosition);
  out_.velocity_world = v;
  out_.velocity_body = Rt * v;
  out_.angular_velocity = w;
  // Tait–Bryan z-y-x angles of q (ISO 8855 yaw, pitch, roll)
  out_.yaw = std::atan2(2.0 * (q.w() * q.z() + q.x() * q.y()),
                        1.0 - 2.0 * (q.y() * q.y() + q.z() * q.z()));
  out_.pitch = std::asin(std::clamp(2.0 * (q.w() * q.y() - q.z() * q.x()), -1.0, 1.0));
  out_.roll = std::atan2(2.0 * (q.w() * q.x() + q.y() * q.z()),
                         1.0 - 2.0 * (q.x() * q.x() + q.y() * q.y()));
  // Mean acceleration over the step (what an IMU integrates over its sample period)
  const Eigen::Vector3d a_world = (v - before.segment<3>(B::kVelocity)) / p.dt;
  const Eigen::Vector3d alpha = (w - before.segment<3>(B::kAngularVelocity)) / p.dt;
  out_.acceleration_body = Rt * a_world;
  out_.imu = imu_.measure({.acceleration_body = out_.acceleration_body,
                           .gravity_body = Rt * Eigen::Vector3d(0.0, 0.0, -p.gravity),
                           .angular_velocity = w,
                           .angular_acceleration = alpha},
                          p.dt);
  const Eigen::Vector3d& antenna = p.sensors.gnss.antenna;
  out_.gnss = gnss_.update(out_.time, out_.position + R * antenna, v + R * w.cross(antenna));
  out_.aero_force_body = diag_.aero_force_body;
  WheelValues omega{};
  for (std::size_t i = 0; i < model_.wheel_count(); ++i) omega[i] = x_[L::spin(i)];
  const auto drive_state = x_.segment<L::kDriveSize>(L::kDrive);
  if (p.drive.kind == DriveKind::electric) {
    out_.electric = electric_drive_outputs(p.drive.electric, drive_controller_,
                                           drive_state.head<ElectricDriveLayout::kSize>(), omega,
                                           external_voltage_);
  } else if (p.drive.kind == DriveKind::combustion) {
    out_.powertrain = powertrain_outputs(model_.powertrain(), powertrain_,
                                         drive_state.head<PowertrainLayout::kSize>(), omega);
  }
  out_.rejected_inputs += in.rejected;

  for (std::size_t a = 0; a < p.axle_count; ++a) out_.steering_angle[a] = x_[L::steer(a)];
  const std::array<double, kMaxWheels> tan_delta = model_.steer_tangents(x_);
  for (std::size_t i = 0; i + 1 < model_.wheel_count(); i += 2) {  // an axle's two per call
    const lanes::L2 delta = vmath::atan(lanes::make(tan_delta[i], tan_delta[i + 1]));
    out_.wheels[i].steer_angle = delta[0];
    out_.wheels[i + 1].steer_angle = delta[1];
  }
  for (std::size_t i = 0; i < model_.wheel_count(); ++i) {
    WheelOutputs& o = out_.wheels[i];
    const WheelDiagnostics& d = diag_.wheels[i];
    o.speed = x_[L::spin(i)];
    o.angle = x_[L::angle(i)];
    o.encoder_counts = static_cast<double>(encoder_counts(p.sensors.encoder, o.angle));
    o.suspension_travel = x_[ChassisLayout::travel(i)];
    o.normal_force = d.tire.N;
    o.longitudinal_force = d.tire.Fx;
    o.lateral_force = d.tire.Fy;
    o.slip = d.tire.s;
    o.slip_angle = d.tire.alpha;
    o.tire_deflection = d.deflection;
    o.sinkage = d.tire.sinkage;
    o.brake_torque = d.brake_torque;
    o.drive_torque = d.drive_torque;
  }
}

}  // namespace hil::models
