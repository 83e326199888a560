#pragma once
// The sprung mass of the chassis: a rigid body with six degrees of freedom (MAVS structure,
// mavs-vti-model.md §Steps: "rigid-body multibody dynamics"; ISO 8855 axes x forward,
// y left, z up). Attitude is a unit quaternion body → world. The state is a flat fixed-size
// vector so that rt_core's rk4_step integrates it with the rest of the vehicle state.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace hil::models {

struct RigidBodyParams {
  double mass = 1.0;                                      ///< [kg]
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();  ///< about the CG, body axes [kg·m²]
};

/// Layout of the 13 state values: position (world) [m], attitude quaternion (w, x, y, z)
/// body → world, velocity of the CG (world) [m/s], angular velocity (body) [rad/s].
struct RigidBodyLayout {
  static constexpr int kPosition = 0;
  static constexpr int kAttitude = 3;
  static constexpr int kVelocity = 7;
  static constexpr int kAngularVelocity = 10;
  static constexpr int kSize = 13;
};

using RigidBodyState = Eigen::Matrix<double, RigidBodyLayout::kSize, 1>;

/// Sum of the external loads on the body.
struct Wrench {
  Eigen::Vector3d force_world = Eigen::Vector3d::Zero();  ///< through the CG [N]
  Eigen::Vector3d torque_body = Eigen::Vector3d::Zero();  ///< about the CG [N·m]

  /// Adds a force applied at `point_body` (relative to the CG, body axes) given in world
  /// axes, with its moment about the CG. `attitude` is body → world.
  void add_force_at(const Eigen::Quaterniond& attitude, const Eigen::Vector3d& force,
                    const Eigen::Vector3d& point_body) noexcept;
};

/// The attitude stored in `x`, body → world.
[[nodiscard]] Eigen::Quaterniond attitude(const RigidBodyState& x) noexcept;
[[nodiscard]] RigidBodyState make_rigid_body_state(
    const Eigen::Vector3d& position, const Eigen::Quaterniond& attitude,
    const Eigen::Vector3d& velocity, const Eigen::Vector3d& angular_velocity) noexcept;

/// dx/dt of the body under `load`: ṗ = v, q̇ = ½·q ⊗ (0, ω), m·v̇ = F,
/// I·ω̇ = τ − ω × (I·ω) (Newton–Euler, Euler's equations in body axes).
/// `inertia_inverse` is params.inertia⁻¹, computed once at setup.
[[nodiscard]] RigidBodyState rigid_body_derivative(const RigidBodyParams& params,
                                                   const Eigen::Matrix3d& inertia_inverse,
                                                   const RigidBodyState& x,
                                                   const Wrench& load) noexcept;

/// Brings the quaternion back to unit length after an integration step (RK4 does not keep
/// it exactly there).
void normalize_attitude(RigidBodyState& x) noexcept;

/// Kinetic energy ½·m·|v|² + ½·ωᵀ·I·ω [J].
[[nodiscard]] double kinetic_energy(const RigidBodyParams& params,
                                    const RigidBodyState& x) noexcept;

}  // namespace hil::models
