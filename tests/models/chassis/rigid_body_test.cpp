#include "models/chassis/rigid_body.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

using L = RigidBodyLayout;

/// Integrates the body under a constant-in-body-frame load function for `steps` of `h`.
template <class Load>
RigidBodyState integrate(const RigidBodyParams& p, RigidBodyState x, double h, int steps,
                         Load load) {
  const Eigen::Matrix3d inverse = p.inertia.inverse();
  const auto f = [&](double t, const RigidBodyState& s) {
    return rigid_body_derivative(p, inverse, s, load(t, s));
  };
  for (int i = 0; i < steps; ++i) {
    x = rt::rk4_step(f, i * h, x, h);
    normalize_attitude(x);
  }
  return x;
}

TEST(RigidBody, FallsAndTranslatesExactlyUnderGravity) {
  const RigidBodyParams p{.mass = 2600.0};
  const Eigen::Vector3d g(0.0, 0.0, -9.81);
  const RigidBodyState x0 = make_rigid_body_state({0, 0, 10}, Eigen::Quaterniond::Identity(),
                                                  {3, -1, 2}, Eigen::Vector3d::Zero());

  const RigidBodyState x = integrate(p, x0, 1e-3, 1000, [&](double, const RigidBodyState&) {
    return Wrench{.force_world = p.mass * g};
  });

  // p(t) = p0 + v0·t + ½·g·t²: a quadratic, which RK4 integrates exactly.
  EXPECT_NEAR(x[L::kPosition + 0], 3.0, 1e-9);
  EXPECT_NEAR(x[L::kPosition + 1], -1.0, 1e-9);
  EXPECT_NEAR(x[L::kPosition + 2], 10.0 + 2.0 - 0.5 * 9.81, 1e-9);
  EXPECT_NEAR(x[L::kVelocity + 2], 2.0 - 9.81, 1e-9);
}

TEST(RigidBody, ConstantSpinAboutAPrincipalAxisTurnsByOmegaTimesT) {
  const RigidBodyParams p{.mass = 10.0, .inertia = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal()};
  const double omega = 0.7;  // about body z (yaw)
  const RigidBodyState x0 =
      make_rigid_body_state(Eigen::Vector3d::Zero(), Eigen::Quaterniond::Identity(),
                            Eigen::Vector3d::Zero(), {0.0, 0.0, omega});

  const RigidBodyState x =
      integrate(p, x0, 1e-3, 2000, [](double, const RigidBodyState&) { return Wrench{}; });

  const Eigen::Quaterniond expected(Eigen::AngleAxisd(omega * 2.0, Eigen::Vector3d::UnitZ()));
  EXPECT_NEAR(attitude(x).angularDistance(expected), 0.0, 1e-9);
  EXPECT_NEAR(x[L::kAngularVelocity + 2], omega, 1e-12);
}

TEST(RigidBody, TorqueFreeTumblingConservesEnergyAndAngularMomentum) {
  // An asymmetric body spinning near its intermediate axis tumbles (Dzhanibekov effect);
  // with no load, kinetic energy and the world-frame angular momentum are invariants.
  const RigidBodyParams p{.mass = 1.0, .inertia = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal()};
  const RigidBodyState x0 =
      make_rigid_body_state(Eigen::Vector3d::Zero(), Eigen::Quaterniond::Identity(),
                            Eigen::Vector3d::Zero(), {0.01, 2.0, 0.01});
  const auto momentum_world = [&](const RigidBodyState& s) -> Eigen::Vector3d {
    return attitude(s) * (p.inertia * s.segment<3>(L::kAngularVelocity));
  };

  const RigidBodyState x =
      integrate(p, x0, 1e-3, 10'000, [](double, const RigidBodyState&) { return Wrench{}; });

  EXPECT_NEAR(kinetic_energy(p, x) / kinetic_energy(p, x0), 1.0, 1e-6);
  EXPECT_NEAR((momentum_world(x) - momentum_world(x0)).norm() / momentum_world(x0).norm(), 0.0,
              1e-6);
  EXPECT_GT(std::abs(x[L::kAngularVelocity + 1] - 2.0), 0.1);  // it did tumble
}

TEST(RigidBody, ForceAtAnOffsetPointAddsItsMomentAboutTheCg) {
  Wrench w;
  const Eigen::Quaterniond yawed(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()));
  // 100 N upward (world) at 1.5 m ahead of the CG: pitches the nose up, i.e. a negative
  // moment about body y (ISO 8855: y left, positive pitch = nose down).
  w.add_force_at(yawed, {0.0, 0.0, 100.0}, {1.5, 0.0, 0.0});

  EXPECT_TRUE(w.force_world.isApprox(Eigen::Vector3d(0.0, 0.0, 100.0)));
  EXPECT_NEAR(w.torque_body.x(), 0.0, 1e-12);
  EXPECT_NEAR(w.torque_body.y(), -150.0, 1e-12);
  EXPECT_NEAR(w.torque_body.z(), 0.0, 1e-12);

  // A world-x force at the same point of the yawed body acts along body −y: yaw moment −150.
  Wrench lateral;
  lateral.add_force_at(yawed, {100.0, 0.0, 0.0}, {1.5, 0.0, 0.0});
  EXPECT_NEAR(lateral.torque_body.z(), -150.0, 1e-9);
}

}  // namespace
}  // namespace hil::models
