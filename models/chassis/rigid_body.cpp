#include "models/chassis/rigid_body.hpp"

namespace hil::models {

using L = RigidBodyLayout;

void Wrench::add_force_at(const Eigen::Quaterniond& attitude, const Eigen::Vector3d& force,
                          const Eigen::Vector3d& point_body) noexcept {
  force_world += force;
  torque_body += point_body.cross(attitude.conjugate() * force);  // r × F in body axes
}

Eigen::Quaterniond attitude(const RigidBodyState& x) noexcept {
  return {x[L::kAttitude], x[L::kAttitude + 1], x[L::kAttitude + 2], x[L::kAttitude + 3]};
}

RigidBodyState make_rigid_body_state(const Eigen::Vector3d& position, const Eigen::Quaterniond& q,
                                     const Eigen::Vector3d& velocity,
                                     const Eigen::Vector3d& angular_velocity) noexcept {
  RigidBodyState x;
  x.segment<3>(L::kPosition) = position;
  x.segment<4>(L::kAttitude) << q.w(), q.x(), q.y(), q.z();
  x.segment<3>(L::kVelocity) = velocity;
  x.segment<3>(L::kAngularVelocity) = angular_velocity;
  return x;
}

RigidBodyState rigid_body_derivative(const RigidBodyParams& params,
                                     const Eigen::Matrix3d& inertia_inverse,
                                     const RigidBodyState& x, const Wrench& load) noexcept {
  const Eigen::Quaterniond q = attitude(x);
  const Eigen::Vector3d omega = x.segment<3>(L::kAngularVelocity);
  RigidBodyState dx;
  dx.segment<3>(L::kPosition) = x.segment<3>(L::kVelocity);  // ṗ = v
  // q̇ = ½·q ⊗ (0, ω), ω in body axes.
  const Eigen::Quaterniond omega_q(0.0, omega.x(), omega.y(), omega.z());
  const Eigen::Quaterniond q_dot = q * omega_q;
  dx.segment<4>(L::kAttitude) << 0.5 * q_dot.w(), 0.5 * q_dot.x(), 0.5 * q_dot.y(), 0.5 * q_dot.z();
  dx.segment<3>(L::kVelocity) = load.force_world / params.mass;  // m·v̇ = F
  // Euler's equations: I·ω̇ = τ − ω × (I·ω).
  dx.segment<3>(L::kAngularVelocity) =
      inertia_inverse * (load.torque_body - omega.cross(params.inertia * omega));
  return dx;
}

void normalize_attitude(RigidBodyState& x) noexcept { x.segment<4>(L::kAttitude).normalize(); }

double kinetic_energy(const RigidBodyParams& params, const RigidBodyState& x) noexcept {
  const Eigen::Vector3d v = x.segment<3>(L::kVelocity);
  const Eigen::Vector3d omega = x.segment<3>(L::kAngularVelocity);
  return 0.5 * params.mass * v.squaredNorm() + 0.5 * omega.dot(params.inertia * omega);
}

}  // namespace hil::models
