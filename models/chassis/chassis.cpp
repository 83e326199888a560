#include "models/chassis/chassis.hpp"

#include <Eigen/LU>
#include <utility>

namespace hil::models {

namespace {

using B = RigidBodyLayout;
using C = ChassisLayout;
using Vec6 = Eigen::Matrix<double, 6, 1>;

// NOLINTNEXTLINE(cert-err58-cpp): no throw; the slider axis
const Eigen::Vector3d kUp = Eigen::Vector3d::UnitZ();

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

/// P·v: v without its slider-axis (body z) component.
Eigen::Vector3d perpendicular(const Eigen::Vector3d& v) noexcept { return {v.x(), v.y(), 0.0}; }

}  // namespace

Chassis::Chassis(ChassisParams p) : params(std::move(p)) {
  const Mat3 P = perpendicular();
  const Mat3 E = cross_matrix(kUp);
  Mat3 mass_top_left = params.sprung.mass * Mat3::Identity();
  mass_top_right_0_.setZero();
  mass_bottom_right_0_ = params.sprung.inertia;
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    const double mu = params.corners[i].unsprung_mass;
    const Mat3 H = cross_matrix(params.corners[i].hardpoint);
    mass_top_left += mu * P;
    mass_top_right_0_ -= mu * P * H;
    mass_bottom_right_0_ -= mu * H * P * H;
    mass_bottom_right_1_[i] = mu * (E * H + H * E);  // P·[e_z]× = [e_z]×·P = [e_z]×
  }
  mass_top_left_inverse_ = mass_top_left.diagonal().cwiseInverse();
}

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

ChassisKinematics Chassis::kinematics(const ChassisState& x) const noexcept {
  ChassisKinematics k;
  k.q = attitude(x.head<B::kSize>());
  k.R = k.q.toRotationMatrix();
  k.omega = x.segment<3>(B::kAngularVelocity);
  const Eigen::Vector3d p = x.segment<3>(B::kPosition);
  const Eigen::Vector3d v = x.segment<3>(B::kVelocity);
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    k.r[i] = params.corners[i].hardpoint + x[C::travel(i)] * kUp;
    k.position[i] = p + k.R * k.r[i];
    k.velocity[i] = v + k.R * (k.omega.cross(k.r[i]) + x[C::travel_rate(i)] * kUp);
  }
  return k;
}

ChassisState Chassis::derivative(const ChassisState& x, const ChassisLoads& loads) const noexcept {
  return derivative(x, kinematics(x), loads);
}

ChassisState Chassis::derivative(const ChassisState& x, const ChassisKinematics& k,
                                 const ChassisLoads& loads) const noexcept {
  const Eigen::Matrix3d Rt = k.R.transpose();
  const Eigen::Vector3d& omega = k.omega;
  const Eigen::Vector3d g = Rt * params.gravity;  // body axes
  const Eigen::Matrix3d& I = params.sprung.inertia;

  // M·(a, α) = rhs: sprung body plus each unsprung mass seen across its slider.
  double sum_mu_zeta = 0.0;
  double sum_mu_zeta2 = 0.0;
  Mat3 m_br = mass_bottom_right_0_;
  Vec6 rhs;
  rhs.head<3>() = Rt * loads.external.force_world + params.sprung.mass * g;
  rhs.tail<3>() = loads.external.torque_body - omega.cross(I * omega);

  std::array<Eigen::Vector3d, kMaxWheels> c_acc;  // ω×(ω×r) + 2ω×ṙ_rel
  std::array<double, kMaxWheels> axial_load{};    // F_hub,z + mᵤ·g_z − Fs
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    const double mu = params.corners[i].unsprung_mass;
    const double zeta = x[C::travel(i)];
    const Eigen::Vector3d& r = k.r[i];
    sum_mu_zeta += mu * zeta;
    sum_mu_zeta2 += mu * zeta * zeta;
    m_br.noalias() -= zeta * mass_bottom_right_1_[i];
    const double zeta_rate = x[C::travel_rate(i)];
    c_acc[i] = omega.cross(omega.cross(r)) +
               Eigen::Vector3d(2.0 * omega.y() * zeta_rate, -2.0 * omega.x() * zeta_rate, 0.0);
    const Eigen::Vector3d f_hub = Rt * loads.hub_force_world[i];
    const double f_s = suspension_force(x, i);
    axial_load[i] = f_hub.z() + mu * g.z() - f_s;
    // Force of slider i on the body, without its acceleration-dependent part.
    const Eigen::Vector3d on_body = f_s * kUp + perpendicular(f_hub + mu * g - mu * c_acc[i]);
    rhs.head<3>() += on_body;
    rhs.tail<3>() += r.cross(on_body) + loads.reaction_torque_body[i];
  }
  // [e_z]×² = diag(−1, −1, 0) and [e_z]× enter through Σ mᵤζ² and Σ mᵤζ (see the header).
  m_br(0, 0) += sum_mu_zeta2;
  m_br(1, 1) += sum_mu_zeta2;
  Mat3 m_tr = mass_top_right_0_;
  m_tr(0, 1) += sum_mu_zeta;
  m_tr(1, 0) -= sum_mu_zeta;

  // Solve M·(a, α) = rhs by the Schur complement of the top-left block, which is diagonal
  // (A = diag(m_s + Σmᵤ, m_s + Σmᵤ, m_s)): S·α = r₂ − M_trᵀ·A⁻¹·r₁ with
  // S = M_br − M_trᵀ·A⁻¹·M_tr (3 × 3, symmetric positive definite), then a = A⁻¹·(r₁ − M_tr·α).
  const Eigen::Vector3d& a_inv = mass_top_left_inverse_;
  const Mat3 a_inv_tr = a_inv.asDiagonal() * m_tr;
  const Mat3 S = m_br - m_tr.transpose() * a_inv_tr;
  const Eigen::Vector3d alpha =
      S.inverse() * (rhs.tail<3>() - a_inv_tr.transpose() * rhs.head<3>());
  const Eigen::Vector3d a = a_inv.cwiseProduct(rhs.head<3>()) - a_inv_tr * alpha;

  ChassisState dx = ChassisState::Zero();
  dx.segment<3>(B::kPosition) = x.segment<3>(B::kVelocity);
  const Eigen::Quaterniond q_dot = k.q * Eigen::Quaterniond(0.0, omega.x(), omega.y(), omega.z());
  dx.segment<4>(B::kAttitude) << 0.5 * q_dot.w(), 0.5 * q_dot.x(), 0.5 * q_dot.y(),
      0.5 * q_dot.z();  // q̇ = ½·q ⊗ (0, ω)
  dx.segment<3>(B::kVelocity) = k.R * a;
  dx.segment<3>(B::kAngularVelocity) = alpha;
  for (std::size_t i = 0; i < params.wheel_count; ++i) {
    const double mu = params.corners[i].unsprung_mass;
    // Axial balance of the unsprung mass: mᵤ·(aᵢ·e_z) = F_hub,z + mᵤ·g_z − Fs.
    dx[C::travel(i)] = x[C::travel_rate(i)];
    dx[C::travel_rate(i)] = axial_load[i] / mu - (a + alpha.cross(k.r[i]) + c_acc[i]).z();
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
