#include "models/chassis.hpp"

#include <Eigen/Cholesky>

namespace hil::models {

namespace {

using B = RigidBodyLayout;
using C = ChassisLayout;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

const Eigen::Vector3d kUp = Eigen::Vector3d::UnitZ();  // slider axis, body axes

/// [r]×: the matrix of r × (·).
Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& r) {
  Eigen::Matrix3d m;
  m << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
  return m;
}

/// Projection perpendicular to the slider axis.
Eigen::Matrix3d perpendicular() {
  Eigen::Matrix3d p = Eigen::Matrix3d::Identity();
  p(2, 2) = 0.0;
  return p;
}

}  // namespace

Chassis::Chassis(const ChassisParams& p)
    : params(p), sprung_inertia_inverse(p.sprung.inertia.inverse()) {}

double Chassis::total_mass() const noexcept {
  double m = params.sprung.mass;
  for (std::size_t i = 0; i < params.wheel_count; ++i) m += params.corners[i].unsprung_mass;
  return m;
}

Eigen::Vector3d Chassis::wheel_centre(const ChassisState& x, std::size_t i) const noexcept {
  const Eigen::Vector3d r = params.corners[i].hardpoint + x[C::travel(i)] * kUp;
  return x.segment<3>(B::kPosition) + attitude(x.head<B::kSize>()) * r;
}

Eigen::Vector3d Chassis::wheel_centre_velocity(const ChassisState& x,
                                               std::size_t i) const noexcept {
  const Eigen::Vector3d r = params.corners[i].hardpoint + x[C::travel(i)] * kUp;
  const Eigen::Vector3d omega = x.segment<3>(B::kAngularVelocity);
  return x.segment<3>(B::kVelocity) +
         attitude(x.head<B::kSize>()) * (omega.cross(r) + x[C::travel_rate(i)] * kUp);
}

double Chassis::suspension_force(const ChassisState& x, std::size_t i) const noexcept {
  const CornerParams& c = params.corners[i];
  return c.spring_preload + c.spring_rate * x[C::travel(i)] +
         c.damping * x[C::travel_rate(i)];  // Fs = F0 + k·ζ + c·ζ̇
}

ChassisState Chassis::derivative(const ChassisState& x, const ChassisLoads& loads) const noexcept {
  const RigidBodyState body = x.head<B::kSize>();
  const Eigen::Quaterniond q = attitude(body);
  const Eigen::Matrix3d R = q.toRotationMatrix();  // body → world
  const Eigen::Vector3d omega = body.segment<3>(B::kAngularVelocity);
  const Eigen::Vector3d g = R.transpose() * params.gravity;  // body axes
  const Eigen::Matrix3d& I = params.sprung.inertia;
  const Eigen::Matrix3d P = perpendicular();

  // M·(a, α) = rhs: sprung body plus each unsprung mass seen across its slider.
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = params.sprung.mass * Eigen::Matrix3d::Identity();
  M.bottomRightCorner<3, 3>() = I;
  Vec6 rhs;
  rhs.head<3>() = R.transpose() * loads.external.force_world + params.sprung.mass * g;
  rhs.tail<3>() = loads.external.torque_body - omega.cross(I * omega);

  std::array<Eigen::Vector3d, kMaxWheels> r{};      // wheel centres, body axes
  std::array<Eigen::Vector3d, kMaxWheels> c_acc{};  // ω×(ω×r) + 2ω×ṙ_rel
  std::array<Eigen::Vector3d, kMaxWheels> f_hub{};  // hub forces, body axes
  std::array<double, kMaxWheels> f_s{};
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    const CornerParams& corner = params.corners[i];
    const double mu = corner.unsprung_mass;
    r[i] = corner.hardpoint + x[C::travel(i)] * kUp;
    c_acc[i] = omega.cross(omega.cross(r[i])) + 2.0 * omega.cross(x[C::travel_rate(i)] * kUp);
    f_hub[i] = R.transpose() * loads.hub_force_world[i];
    f_s[i] = suspension_force(x, i);
    const Eigen::Matrix3d rx = cross_matrix(r[i]);
    M.topLeftCorner<3, 3>() += mu * P;
    M.topRightCorner<3, 3>() -= mu * P * rx;
    M.bottomLeftCorner<3, 3>() += mu * rx * P;
    M.bottomRightCorner<3, 3>() -= mu * rx * P * rx;
    // Force of slider i on the body, without its acceleration-dependent part.
    const Eigen::Vector3d on_body = f_s[i] * kUp + P * (f_hub[i] + mu * g) - mu * P * c_acc[i];
    rhs.head<3>() += on_body;
    rhs.tail<3>() += r[i].cross(on_body) + loads.reaction_torque_body[i];
  }
  const Vec6 acc = M.llt().solve(rhs);  // M is symmetric positive definite
  const Eigen::Vector3d a = acc.head<3>();
  const Eigen::Vector3d alpha = acc.tail<3>();

  ChassisState dx = ChassisState::Zero();
  dx.segment<3>(B::kPosition) = body.segment<3>(B::kVelocity);
  const Eigen::Quaterniond q_dot = q * Eigen::Quaterniond(0.0, omega.x(), omega.y(), omega.z());
  dx.segment<4>(B::kAttitude) << 0.5 * q_dot.w(), 0.5 * q_dot.x(), 0.5 * q_dot.y(),
      0.5 * q_dot.z();  // q̇ = ½·q ⊗ (0, ω)
  dx.segment<3>(B::kVelocity) = R * a;
  dx.segment<3>(B::kAngularVelocity) = alpha;
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    const double mu = params.corners[i].unsprung_mass;
    // Axial balance of the unsprung mass: mᵤ·(aᵢ·e_z) = F_hub,z + mᵤ·g_z − Fs.
    const double axial_acc = (f_hub[i].z() + mu * g.z() - f_s[i]) / mu;
    dx[C::travel(i)] = x[C::travel_rate(i)];
    dx[C::travel_rate(i)] = axial_acc - (a + alpha.cross(r[i]) + c_acc[i]).z();
  }
  return dx;
}

double Chassis::mechanical_energy(const ChassisState& x) const noexcept {
  const RigidBodyState body = x.head<B::kSize>();
  double e = kinetic_energy(params.sprung, body) -
             params.sprung.mass * params.gravity.dot(body.segment<3>(B::kPosition));
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    const CornerParams& c = params.corners[i];
    const double zeta = x[C::travel(i)];
    e += 0.5 * c.unsprung_mass * wheel_centre_velocity(x, i).squaredNorm() -
         c.unsprung_mass * params.gravity.dot(wheel_centre(x, i)) + c.spring_preload * zeta +
         0.5 * c.spring_rate * zeta * zeta;
  }
  return e;
}

}  // namespace hil::models
