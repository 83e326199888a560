#include "models/vehicle/vehicle_model.hpp"

#include <Eigen/Geometry>

// VehicleModel: the states a run starts from, and the mechanical energy of a state (what the
// energy tests check). Setup phase and tests; the step is in vehicle_model.cpp.

namespace hil::models {

namespace {

using L = VehicleLayout;
using B = RigidBodyLayout;

}  // namespace

VehicleState VehicleModel::rest_state(double x, double y, double yaw, double speed) const {
  const TerrainSample ground = terrain_->sample(x, y);
  const Eigen::Vector3d& n = ground.normal;
  // Attitude: yaw about world z, then tilt world z onto the terrain normal
  const Eigen::Quaterniond tilt = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), n);
  const Eigen::Quaterniond q =
      tilt * Eigen::Quaterniond(Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()));
  // Height of the CG above the ground along n: each wheel centre at d/2 − δ_static, with
  // δ_static = (spring preload + m_u·g·n_z)/k_tire; averaged over the wheels
  double clearance = 0.0;
  std::array<double, kMaxWheels> rolling_radius{};
  for (std::size_t i = 0; i < wheel_count(); ++i) {
    const AxleParams& axle = params_.axles[i / 2];
    const double load = (spring_preload(i) + axle.unsprung_mass * params_.gravity) * n.z();
    const double deflection = load / axle.tire.vertical_stiffness;
    rolling_radius[i] = 0.5 * axle.tire.diameter - deflection;
    clearance += rolling_radius[i] - axle.z;
  }
  clearance /= static_cast<double>(wheel_count());
  const Eigen::Vector3d position = Eigen::Vector3d(x, y, ground.height) + clearance * n;
  const Eigen::Vector3d forward = q * Eigen::Vector3d::UnitX();
  VehicleState s = VehicleState::Zero();
  s.head<B::kSize>() = make_rigid_body_state(position, q, speed * forward, Eigen::Vector3d::Zero());
  for (std::size_t i = 0; i < wheel_count(); ++i) s[L::spin(i)] = speed / rolling_radius[i];
  if (params_.drive.kind == DriveKind::electric) {
    s.segment<ElectricDriveLayout::kSize>(L::kDrive) =
        electric_drive_initial_state(params_.drive.electric, params_.drive.initial_soc);
  } else if (params_.drive.kind == DriveKind::combustion) {
    s.segment<PowertrainLayout::kSize>(L::kDrive) = powertrain_initial_state(powertrain_);
  }
  return s;
}

double VehicleModel::mechanical_energy(const VehicleState& x) const noexcept {
  const ChassisState xc = x.head<ChassisLayout::kSize>();
  double e = chassis_.mechanical_energy(xc);
  const ChassisKinematics k = chassis_.kinematics(xc);
  for (std::size_t i = 0; i < wheel_count(); ++i) {
    const TireParams& tp = tire(i);
    const TerrainSample ground = terrain_->sample(k.position[i].x(), k.position[i].y());
    const double delta =
        0.5 * tp.diameter - ground.normal.z() * (k.position[i].z() - ground.height);
    const double omega = x[L::spin(i)];
    const double phi = x[L::brake(i)];
    e += 0.5 * tp.spin_inertia * omega * omega + 0.5 * brake_lock_[i].stiffness * phi * phi;
    if (delta > 0.0) e += 0.5 * tp.vertical_stiffness * delta * delta;
  }
  return e;
}

}  // namespace hil::models
