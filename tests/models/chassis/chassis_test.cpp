// The chassis on vertical linear "tire" springs at the wheel centres: the tire model is
// tested on its own; here the springs stand in for it so that the chassis dynamics can be
// checked against analytic statics and against conservation of energy.

#include "models/chassis/chassis.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

using C = ChassisLayout;
using B = RigidBodyLayout;

constexpr double kTireRadius = 0.47;        // HMMWV (DESIGN.md §6)
constexpr double kTireStiffness = 300'000;  // [N/m]
constexpr double kG = 9.81;

/// HMMWV-like: 2600 kg in all, wheelbase 3.378 m, track 1.819 m, CG 1.6 m behind the front
/// axle and 0.35 m above the wheel centres.
ChassisParams hmmwv_like(double damping) {
  ChassisParams p;
  p.sprung.mass = 2300.0;
  p.sprung.inertia = Eigen::Vector3d(1200.0, 4200.0, 4700.0).asDiagonal();
  const double a = 1.6, b = 3.378 - 1.6, half_track = 1.819 / 2, h = -0.35;
  const Eigen::Vector3d points[] = {
      {a, half_track, h}, {a, -half_track, h}, {-b, half_track, h}, {-b, -half_track, h}};
  for (std::size_t i = 0; i < 4; ++i) {
    p.corners[i] = {.hardpoint = points[i],
                    .unsprung_mass = 75.0,
                    .spring_rate = 80'000.0,
                    .damping = damping,
                    .spring_preload = 0.0};
  }
  p.wheel_count = 4;
  return p;
}

/// Vertical spring (and damper) where the wheel centre is below the tire radius.
struct GroundSprings {
  double damping = 0.0;
  [[nodiscard]] double force(const Chassis& chassis, const ChassisState& x, std::size_t i) const {
    const double penetration = kTireRadius - chassis.wheel_centre(x, i).z();
    if (penetration <= 0.0) return 0.0;
    return kTireStiffness * penetration - damping * chassis.wheel_centre_velocity(x, i).z();
  }
  [[nodiscard]] double energy(const Chassis& chassis, const ChassisState& x) const {
    double e = 0.0;
    for (std::size_t i = 0; i < chassis.params.wheel_count; ++i) {
      const double pen = std::max(0.0, kTireRadius - chassis.wheel_centre(x, i).z());
      e += 0.5 * kTireStiffness * pen * pen;
    }
    return e;
  }
};

ChassisState at_rest(const Eigen::Vector3d& position) {
  ChassisState x = ChassisState::Zero();
  x.head<B::kSize>() = make_rigid_body_state(position, Eigen::Quaterniond::Identity(),
                                             Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  return x;
}

void simulate(const Chassis& chassis, const GroundSprings& ground, ChassisState& x, double h,
              int steps) {
  const auto f = [&](double, const ChassisState& s) {
    ChassisLoads loads;
    for (std::size_t i = 0; i < chassis.params.wheel_count; ++i) {
      loads.hub_force_world[i] = {0.0, 0.0, ground.force(chassis, s, i)};
    }
    return chassis.derivative(s, loads);
  };
  for (int k = 0; k < steps; ++k) {
    x = rt::rk4_step(f, k * h, x, h);
    x.segment<4>(B::kAttitude).normalize();
  }
}

TEST(Chassis, SettlesOnFlatGroundWithTheWheelLoadsOfItsCgPosition) {
  const Chassis chassis(hmmwv_like(4'000.0));
  const GroundSprings ground{.damping = 3'000.0};
  ChassisState x = at_rest({0.0, 0.0, kTireRadius + 0.35});

  simulate(chassis, ground, x, 250e-6, 40'000);  // 10 s

  double total = 0.0, front = 0.0;
  for (std::size_t i = 0; i < 4; ++i) {
    const double n = ground.force(chassis, x, i);
    total += n;
    if (i < 2) front += n;
  }
  const double m = chassis.total_mass();
  EXPECT_NEAR(total / (m * kG), 1.0, 1e-3);  // within 0.1 %
  // Sprung mass split by the CG position, plus the unsprung masses where they stand.
  const double expected_front = 2300.0 * kG * (3.378 - 1.6) / 3.378 + 2 * 75.0 * kG;
  EXPECT_NEAR(front / expected_front, 1.0, 5e-3);  // within 0.5 %
  // Each spring carries its share of the sprung weight: ζ = Fs / k.
  EXPECT_NEAR(chassis.suspension_force(x, 0) + chassis.suspension_force(x, 1),
              2300.0 * kG * (3.378 - 1.6) / 3.378, 2300.0 * kG * 1e-3);
}

TEST(Chassis, ConservesEnergyWithoutDampingOrFriction) {
  const Chassis chassis(hmmwv_like(0.0));
  const GroundSprings ground{.damping = 0.0};
  // Dropped from 2 cm with a roll rate, a pitch rate and some forward speed: the body
  // heaves, rolls and pitches on undamped springs for 10 s.
  ChassisState x = at_rest({0.0, 0.0, kTireRadius + 0.35 + 0.02});
  x.segment<3>(B::kVelocity) = Eigen::Vector3d(5.0, 0.0, 0.0);
  x.segment<3>(B::kAngularVelocity) = Eigen::Vector3d(0.2, -0.15, 0.0);
  const double e0 = chassis.mechanical_energy(x) + ground.energy(chassis, x);

  simulate(chassis, ground, x, 250e-6, 40'000);

  const double e1 = chassis.mechanical_energy(x) + ground.energy(chassis, x);
  const double kinetic_of_heave = 0.5 * chassis.total_mass() * 25.0;  // scale of the energy
  EXPECT_LT(std::abs(e1 - e0) / kinetic_of_heave, 1e-3);              // drift < 0.1 %
  EXPECT_GT(std::abs(x[B::kAngularVelocity]), 1e-3);                  // it is still rolling
}

TEST(Chassis, QuarterCarStaticDeflectionsMatchTheSprings) {
  ChassisParams p;
  p.sprung.mass = 400.0;
  p.corners[0] = {.hardpoint = {0.0, 0.0, -0.3},
                  .unsprung_mass = 40.0,
                  .spring_rate = 25'000.0,
                  .damping = 2'000.0,
                  .spring_preload = 1'000.0};
  p.wheel_count = 1;
  const Chassis chassis(p);
  const GroundSprings ground{.damping = 1'500.0};
  ChassisState x = at_rest({0.0, 0.0, kTireRadius + 0.3});

  simulate(chassis, ground, x, 250e-6, 40'000);

  // Spring: F0 + k·ζ = m_s·g. Tire: k_t·δ = (m_s + m_u)·g.
  EXPECT_NEAR(x[C::travel(0)], (400.0 * kG - 1'000.0) / 25'000.0, 1e-7);
  EXPECT_NEAR(kTireRadius - chassis.wheel_centre(x, 0).z(), 440.0 * kG / kTireStiffness, 1e-7);
  EXPECT_NEAR(x[B::kAngularVelocity], 0.0, 1e-12);  // a load under the CG tips nothing
}

TEST(Chassis, ALateralForceAtTheFrontAxleYawsAndPushesTheBody) {
  const Chassis chassis(hmmwv_like(0.0));
  ChassisState x = at_rest({0.0, 0.0, 1.0});
  ChassisLoads loads;
  loads.hub_force_world[0] = {0.0, 1'000.0, 0.0};  // front left, to the left

  const ChassisState dx = chassis.derivative(x, loads);

  EXPECT_GT(dx[B::kVelocity + 1], 0.0);         // accelerates to the left
  EXPECT_GT(dx[B::kAngularVelocity + 2], 0.0);  // yaws left (nose towards the force)
  // In free flight the linear momentum rate is the applied force plus gravity.
  double momentum_rate_y = chassis.params.sprung.mass * dx[B::kVelocity + 1];
  for (std::size_t i = 0; i < 4; ++i) {
    const Eigen::Vector3d r = chassis.params.corners[i].hardpoint;
    const Eigen::Vector3d wheel_acc = dx.segment<3>(B::kVelocity) +
                                      Eigen::Vector3d(dx.segment<3>(B::kAngularVelocity)).cross(r) +
                                      dx[C::travel_rate(i)] * Eigen::Vector3d::UnitZ();
    momentum_rate_y += 75.0 * wheel_acc.y();
  }
  EXPECT_NEAR(momentum_rate_y, 1'000.0, 1e-9);
}

}  // namespace
}  // namespace hil::models
