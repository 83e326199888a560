#include "models/vehicle/vehicle_model.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "models/chassis/aero.hpp"
#include "models/chassis/road_load.hpp"
#include "models/math/vector_math.hpp"
#include "models/steering/steering.hpp"
#include "models/steering/steering_servo.hpp"
#include "models/terrain/road_input.hpp"
#include "models/vehicle/vehicle_lanes.hpp"

namespace hil::models {

namespace {

using L = VehicleLayout;
using B = RigidBodyLayout;

/// Spring loads at ζ = 0 that hold the sprung weight W with no pitch or roll moment about
/// the CG: F_i = k_i·(a + b·x_i + c·y_i), the loads of a rigid body settling on the springs,
/// solved from ΣF = W, ΣF·x = 0, ΣF·y = 0 (statics; exact lever rule for two axles).
std::array<double, kMaxWheels> static_spring_loads(const VehicleParams& p) {
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();
  std::array<Eigen::Vector3d, kMaxWheels> basis{};
  for (std::size_t i = 0; i < p.wheel_count(); ++i) {
    const AxleParams& axle = p.axles[i / 2];
    const double y = (i % 2 == 0 ? 0.5 : -0.5) * axle.track;
    basis[i] = Eigen::Vector3d(1.0, axle.x, y);
    A += axle.spring_rate * basis[i] * basis[i].transpose();
  }
  const Eigen::Vector3d coefficients =
      A.ldlt().solve(Eigen::Vector3d(p.sprung.mass * p.gravity, 0.0, 0.0));
  std::array<double, kMaxWheels> loads{};
  for (std::size_t i = 0; i < p.wheel_count(); ++i) {
    loads[i] = p.axles[i / 2].spring_rate * basis[i].dot(coefficients);
    if (!(loads[i] > 0.0)) {
      throw std::invalid_argument(
          "vehicle parameters: the sprung CG lies outside the wheels' support (a spring would "
          "have to pull); check axles[].x and the track widths");
    }
  }
  return loads;
}

ChassisParams chassis_params(const VehicleParams& p) {
  ChassisParams c;
  c.sprung = p.sprung;
  c.wheel_count = p.wheel_count();
  c.gravity = Eigen::Vector3d(0.0, 0.0, -p.gravity);
  const std::array<double, kMaxWheels> preload = static_spring_loads(p);
  for (std::size_t i = 0; i < c.wheel_count; ++i) {
    const AxleParams& axle = p.axles[i / 2];
    c.corners[i] = {.hardpoint = {axle.x, (i % 2 == 0 ? 0.5 : -0.5) * axle.track, axle.z},
                    .unsprung_mass = axle.unsprung_mass,
                    .spring_rate = axle.spring_rate,
                    .damping = axle.damping,
                    .spring_preload = preload[i]};
  }
  return c;
}

const VehicleParams& validated(const VehicleParams& p) {
  validate(p);
  return p;
}

/// A value from an input channel: itself when finite, else `neutral` (and counted).
double finite_or(double v, double neutral, int& rejected) noexcept {
  if (std::isfinite(v)) return v;
  ++rejected;
  return neutral;
}

Eigen::Vector3d finite_or_zero(const Eigen::Vector3d& v, int& rejected) noexcept {
  if (v.allFinite()) return v;
  ++rejected;
  return Eigen::Vector3d::Zero();
}

}  // namespace

VehicleModel::VehicleModel(const VehicleParams& params, const Terrain& terrain)
    : params_(validated(params)),
      terrain_(&terrain),
      chassis_(chassis_params(params_)),
      powertrain_(params_.drive.combustion),
      four_lanes_(vmath::avx2_fma_available()) {
  for (std::size_t w = 0; w < kMaxWheels; ++w) {
    powertrain_.driven[w] = w < wheel_count() && params_.axles[w / 2].driven;
  }
  for (std::size_t a = 0; a < params_.axle_count; ++a) {
    AxleParams& axle = params_.axles[a];
    axle.steering.ackermann.track = axle.track;  // the pivots sit at the wheel centres
    max_central_angle_[a] = max_central_angle(axle.steering.ackermann);
    const WheelBrakeLock lock = lock_params(axle.tire.spin_inertia, axle.brake.lock_frequency_hz,
                                            axle.brake.lock_damping_ratio);
    brake_lock_[wheel_index(a, false)] = lock;
    brake_lock_[wheel_index(a, true)] = lock;
  }
}

StepInputs VehicleModel::prepare(const VehicleInputs& in) const noexcept {
  StepInputs s;
  int& bad = s.rejected;
  const double brake = std::clamp(finite_or(in.brake, 0.0, bad), 0.0, 1.0);
  const double park = std::clamp(finite_or(in.park_brake, 0.0, bad), 0.0, 1.0);
  for (std::size_t a = 0; a < params_.axle_count; ++a) {
    // The servo holds its angle on a non-finite command (steering_servo_rate); count it here
    s.steering_command[a] = in.steering_command[a];
    if (!std::isfinite(in.steering_command[a])) ++bad;
  }
  for (std::size_t i = 0; i < wheel_count(); ++i) {
    const AxleBrakeParams& b = params_.axles[i / 2].brake;
    if (params_.drive.kind == DriveKind::torque) {
      s.drive_torque[i] = finite_or(in.drive_torque[i], 0.0, bad);
    }
    s.brake_capacity[i] = brake * b.max_torque + park * b.park_torque;
    s.friction_scale[i] = sanitize_friction_scale(finite_or(in.friction_scale[i], 1.0, bad));
  }
  s.wind_world = wind_velocity_earth(finite_or(in.wind_speed, 0.0, bad),
                                     finite_or(in.wind_direction, 0.0, bad));
  if (params_.road_normal_from_input) {
    // RAVON §3.2 eq. (1): G' = m·g·(N_x, N_y, 1 − N_z)
    s.inclination_force = inclination_force(
        total_mass(), params_.gravity,
        road_normal_from_input(in.road_normal.x(), in.road_normal.y(), in.road_normal.z()));
  }
  s.external_force = finite_or_zero(in.external_force, bad);
  s.external_torque = finite_or_zero(in.external_torque, bad);
  return s;
}

std::array<double, kMaxWheels> VehicleModel::steer_tangents(const VehicleState& x) const noexcept {
  // tan of each steered axle's central angle, limited to its range (ackermann_tangents()):
  // by pairs of axles, one vector call each (models/math/vector_math.hpp)
  std::array<double, kMaxAxles> tan_d{};
  for (std::size_t a = 0; a < params_.axle_count; a += 2) {
    const auto clamped = [&](std::size_t axle) {
      if (axle >= params_.axle_count) return 0.0;
      return std::min(std::abs(x[L::steer(axle)]), max_central_angle_[axle]);
    };
    const lanes::L2 t = vmath::tan(lanes::make(clamped(a), clamped(a + 1)));
    tan_d[a] = t[0];
    if (a + 1 < kMaxAxles) tan_d[a + 1] = t[1];
  }
  std::array<double, kMaxWheels> t{};
  for (std::size_t a = 0; a < params_.axle_count; ++a) {
    const AxleSteeringParams& s = params_.axles[a].steering;
    if (!s.steered) continue;
    const double d = x[L::steer(a)];
    WheelAngles w{};
    if (s.behind_turning_centre) {
      // Behind the centre the wheels point away from the turn: the mirror image of a front
      // axle steered by −d, so the inner wheel (larger angle) is the one on the turn's side
      const WheelAngles m = ackermann_tangents_of(s.ackermann, -d, tan_d[a]);
      w = {.left = -m.left, .right = -m.right};
    } else {
      w = ackermann_tangents_of(s.ackermann, d, tan_d[a]);
    }
    t[wheel_index(a, false)] = w.left;
    t[wheel_index(a, true)] = w.right;
  }
  return t;
}

void VehicleModel::use_four_lanes(bool on) noexcept {
  four_lanes_ = on && vmath::avx2_fma_available();
}

VehicleState VehicleModel::derivative(const StepInputs& in, const VehicleState& x,
                                      StageDiagnostics* diag) const noexcept {
  const ChassisState xc = x.head<ChassisLayout::kSize>();
  const ChassisKinematics k = chassis_kinematics(chassis_, four_lanes_, xc);
  const Eigen::Matrix3d Rt = k.R.transpose();
  ChassisLoads loads;
  VehicleState dx = VehicleState::Zero();

  for (std::size_t a = 0; a < params_.axle_count; ++a) {
    const AxleSteeringParams& s = params_.axles[a].steering;
    if (s.steered) {
      dx[L::steer(a)] = steering_servo_rate(s.servo, x[L::steer(a)], in.steering_command[a]);
    }
  }
  const std::array<double, kMaxWheels> tan_delta = steer_tangents(x);

  // Pass 1, MAVS Steps 1–4 and 6 (models/vehicle/vehicle_lanes.hpp); then the brakes per wheel
  WheelContacts contact;  // NOLINT(cppcoreguidelines-pro-type-member-init): set by pass 1
  contact_pass(*this, four_lanes_, in, x, k, tan_delta, contact, loads);
  DriveWheelInputs wheels;  // ω, the torques other than the drive's, inertia
  for (std::size_t i = 0; i < wheel_count(); ++i) {
    const TireParams& tp = tire(i);
    WheelContact& c = contact[i];
    const double omega = x[L::spin(i)];
    c.brake = wheel_brake(brake_lock_[i], in.brake_capacity[i], x[L::brake(i)], omega);
    dx[L::angle(i)] = omega;
    dx[L::patch_x(i)] = c.tire.patch_rate.u_x;
    dx[L::patch_y(i)] = c.tire.patch_rate.u_y;
    dx[L::brake(i)] = c.brake.phi_rate;
    wheels.omega[i] = omega;
    wheels.inertia[i] = tp.spin_inertia;
    // Step 5 / ruling 8 without the drive: brake − r_eff·F∥ − β·ω
    wheels.other_torque[i] =
        c.brake.torque - c.tire.r_eff * c.tire.Fx_traction - tp.bearing_damping * omega;
  }

  // The drive: its own states' rates, the torque on each wheel, the rotor inertia it adds
  WheelValues drive_torque = in.drive_torque;
  WheelValues reflected_inertia{};
  const auto drive_state = x.segment<L::kDriveSize>(L::kDrive);
  switch (params_.drive.kind) {
    case DriveKind::electric: {
      const ElectricDriveRates r = electric_drive_derivative(
          params_.drive.electric, drive_state.template head<ElectricDriveLayout::kSize>(), in.duty,
          wheels, in.external_voltage);
      dx.segment<ElectricDriveLayout::kSize>(L::kDrive) = r.x_dot;
      drive_torque = r.drive_torque;
      reflected_inertia = r.reflected_inertia;
      break;
    }
    case DriveKind::combustion: {
      const PowertrainRates r =
          powertrain_derivative(powertrain_, drive_state.template head<PowertrainLayout::kSize>(),
                                in.powertrain, wheels.omega);
      dx.segment<PowertrainLayout::kSize>(L::kDrive) = r.x_dot;
      drive_torque = r.drive_torque;
      break;
    }
    case DriveKind::torque:
      break;
  }

  // Pass 2: wheel spin and the reactions on the body
  for (std::size_t i = 0; i < wheel_count(); ++i) {
    const WheelContact& c = contact[i];
    // Step 5 / ruling 8: (I + I_rotor)·dω/dt = Q_drive + brake − r_eff·F∥ − β·ω
    dx[L::spin(i)] =
        (drive_torque[i] + wheels.other_torque[i]) / (wheels.inertia[i] + reflected_inertia[i]);
    // −Q about the axle (drive and brake react on the body), and the overturning moment
    // r_eff·F⊥ of the contact force about the hub (the force acts at the ground, not the hub)
    const double Q = drive_torque[i] + c.brake.torque;
    loads.reaction_torque_body[i] =
        -Q * Eigen::Vector3d(-c.sin_d, c.cos_d, 0.0) + Rt * ((c.tire.r_eff * c.tire.Fy) * c.LT);
    if (diag != nullptr) {
      WheelDiagnostics& w = diag->wheels[i];
      w.tire = c.tire;
      w.deflection = c.delta;
      w.steer_tangent = tan_delta[i];
      w.brake_torque = c.brake.torque;
      w.brake_sliding = c.brake.sliding;
      w.drive_torque = drive_torque[i];
      w.surface = c.surface;
      w.force_world = loads.hub_force_world[i];
    }
  }

  // Aerodynamics on the air-relative velocity (AutoSim §4.3), gravity of the inclined road
  // (RAVON §3.2 eq. (1)), co-simulated disturbances
  const Eigen::Vector3d v_cg = x.segment<3>(B::kVelocity);
  const AeroLoads aero = aero_loads(params_.aero, Rt * v_cg, Rt * in.wind_world);
  loads.external.force_world = k.R * aero.force + in.external_force;
  loads.external.torque_body = aero.moment + in.external_torque;
  if (params_.road_normal_from_input) {
    const Eigen::Vector2d h(k.R(0, 0), k.R(1, 0));  // heading in the horizontal plane
    const double norm = h.norm();
    const double cos_yaw = norm > 0.0 ? h.x() / norm : 1.0;
    const double sin_yaw = norm > 0.0 ? h.y() / norm : 0.0;
    const Eigen::Vector3d& G = in.inclination_force;
    loads.external.force_world += Eigen::Vector3d(cos_yaw * G.x() - sin_yaw * G.y(),
                                                  sin_yaw * G.x() + cos_yaw * G.y(), G.z());
  }
  if (diag != nullptr) diag->aero_force_body = aero.force;

  dx.head<ChassisLayout::kSize>() = chassis_derivative(chassis_, four_lanes_, xc, k, loads);
  return dx;
}

}  // namespace hil::models
