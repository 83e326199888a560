#pragma once
// The chassis (DESIGN.md §6, MAVS structure: mavs-vti-model.md §"Steps in the VTI
// Calculation"): a rigid sprung mass with, per wheel, an unsprung point mass on a slider
// joint along the body z axis, carried by a linear spring-damper. The tire forces act at the
// hubs; wheel spin lives with the wheel model, which hands the chassis the reaction torque of
// its drive/brake.
//
// Formulation. Unknowns of one evaluation: the CG acceleration a and the angular
// acceleration α (body axes) and the slider accelerations ζ̈ᵢ. A slider transmits all forces
// perpendicular to its axis and none along it but the spring-damper force Fsᵢ = k·ζ + c·ζ̇
// (compression ζ > 0 pushes the body up and the wheel down). Eliminating the perpendicular
// constraint forces leaves a 6×6 linear system for (a, α) whose matrix holds the sprung mass
// and inertia plus each unsprung mass seen perpendicular to its slider; ζ̈ᵢ then follows
// from the axial balance of each unsprung mass. Exact for point-mass wheels: energy is
// conserved when damping and friction are off (tested).

#include <Eigen/Core>
#include <array>
#include <cstddef>

#include "models/chassis/rigid_body.hpp"
#include "models/vehicle/capacities.hpp"

namespace hil::models {

struct CornerParams {
  Eigen::Vector3d hardpoint = Eigen::Vector3d::Zero();  ///< wheel centre at ζ = 0, body axes
                                                        ///< relative to the sprung CG [m]
  double unsprung_mass = 40.0;                          ///< wheel, hub, upright [kg]
  double spring_rate = 30'000.0;                        ///< k [N/m]
  double damping = 3'000.0;                             ///< c [N·s/m]
  double spring_preload = 0.0;                          ///< force at ζ = 0 [N]
};

struct ChassisParams {
  RigidBodyParams sprung;  ///< mass and inertia of the sprung body
  std::array<CornerParams, kMaxWheels> corners{};
  std::size_t wheel_count = 4;
  Eigen::Vector3d gravity{0.0, 0.0, -9.81};  ///< world axes [m/s²]
};

/// State layout: the rigid body (13), then per corner ζ [m] (compression) and ζ̇ [m/s].
struct ChassisLayout {
  static constexpr int kBody = 0;
  static constexpr int kCorners = RigidBodyLayout::kSize;
  static constexpr int kPerCorner = 2;
  static constexpr int kSize = kCorners + kPerCorner * static_cast<int>(kMaxWheels);
  [[nodiscard]] static constexpr int travel(std::size_t i) {
    return kCorners + kPerCorner * static_cast<int>(i);
  }
  [[nodiscard]] static constexpr int travel_rate(std::size_t i) { return travel(i) + 1; }
};

using ChassisState = Eigen::Matrix<double, ChassisLayout::kSize, 1>;

/// What acts on the chassis during one evaluation. Starts at zero (value-initialisation
/// does not zero Eigen vectors, hence the constructor).
struct ChassisLoads {
  std::array<Eigen::Vector3d, kMaxWheels> hub_force_world;       ///< tire force at each hub [N]
  std::array<Eigen::Vector3d, kMaxWheels> reaction_torque_body;  ///< drive/brake reaction on
                                                                 ///< the body [N·m]
  Wrench external;  ///< aero, co-simulated disturbances (at the sprung CG)

  ChassisLoads() noexcept {
    hub_force_world.fill(Eigen::Vector3d::Zero());
    reaction_torque_body.fill(Eigen::Vector3d::Zero());
  }
};

/// Everything about the chassis pose that the tires and the dynamics both need, computed
/// once per evaluation (kinematics()) and shared.
struct ChassisKinematics {
  Eigen::Quaterniond q;                              ///< attitude, body → world
  Eigen::Matrix3d R;                                 ///< rotation matrix of q
  Eigen::Vector3d omega;                             ///< angular velocity, body axes [rad/s]
  std::array<Eigen::Vector3d, kMaxWheels> r;         ///< wheel centres, body axes [m]
  std::array<Eigen::Vector3d, kMaxWheels> position;  ///< wheel centres, world [m]
  std::array<Eigen::Vector3d, kMaxWheels> velocity;  ///< wheel-centre velocities, world [m/s]
};

/// The chassis model with its setup-phase precomputation (inverse inertia, the constant and
/// ζ-dependent parts of the mass matrix). Immutable after construction: concurrent const
/// calls are safe. Every const method is noexcept and allocation-free.
class Chassis {
 public:
  explicit Chassis(ChassisParams p);

  ChassisParams params;

  /// Wheel-centre position and velocity, world axes.
  [[nodiscard]] Eigen::Vector3d wheel_centre(const ChassisState& x, std::size_t i) const noexcept;
  [[nodiscard]] Eigen::Vector3d wheel_centre_velocity(const ChassisState& x,
                                                      std::size_t i) const noexcept;
  /// Spring-damper force of corner i, positive when it pushes the body up [N].
  [[nodiscard]] double suspension_force(const ChassisState& x, std::size_t i) const noexcept;

  /// Pose, wheel-centre positions and velocities of state x.
  [[nodiscard]] ChassisKinematics kinematics(const ChassisState& x) const noexcept;

  /// dx/dt of the chassis; the entries of unused corners are zero.
  [[nodiscard]] ChassisState derivative(const ChassisState& x,
                                        const ChassisLoads& loads) const noexcept;
  /// The same with the kinematics of x already computed.
  [[nodiscard]] ChassisState derivative(const ChassisState& x, const ChassisKinematics& k,
                                        const ChassisLoads& loads) const noexcept;

  /// Kinetic + gravitational potential + spring energy [J] (tests and diagnostics).
  [[nodiscard]] double mechanical_energy(const ChassisState& x) const noexcept;

  /// Total mass, sprung plus unsprung [kg].
  [[nodiscard]] double total_mass() const noexcept;

 private:
  using Mat3 = Eigen::Matrix3d;
  // Mass matrix M(ζ) = [[M_tl, M_tr], [M_trᵀ, M_br]] with, per corner, r = h + ζ·e_z:
  //   M_tl = m_s·1 + Σ mᵤ·P                                   (constant, diagonal)
  //   M_tr = −Σ mᵤ·P·[h]× − (Σ mᵤ·ζ)·[e_z]×                    (affine in ζ)
  //   M_br = I − Σ mᵤ·[h]×P[h]× − Σ ζ·mᵤ·([e_z]×[h]× + [h]×[e_z]×) − (Σ mᵤ·ζ²)·[e_z]×²
  Eigen::Vector3d mass_top_left_inverse_;  // A⁻¹ = diag(m_s + Σmᵤ, m_s + Σmᵤ, m_s)⁻¹
  Mat3 mass_top_right_0_;
  Mat3 mass_bottom_right_0_;
  std::array<Mat3, kMaxWheels> mass_bottom_right_1_;  // mᵤ·([e_z]×[h]× + [h]×[e_z]×)
};

}  // namespace hil::models
