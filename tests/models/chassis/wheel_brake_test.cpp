// The elasto-plastic wheel brake: sticks below its capacity without creeping, slides at
// exactly its capacity, stops a spinning wheel without reversing, relaxes when released.

#include "models/chassis/wheel_brake.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <numbers>

#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr double kInertia = 3.0;  // HMMWV wheel [kg·m²]
constexpr double kDt = 250e-6;
const WheelBrakeLock kLock = lock_params(kInertia, 150.0, 1.0);

/// A wheel with inertia I under an external torque and the brake; state (ω, φ, θ).
Eigen::Vector3d step(const Eigen::Vector3d& x, double capacity, double external) {
  const auto f = [&](double, const Eigen::Vector3d& s) {
    const WheelBrakeOutput b = wheel_brake(kLock, capacity, s[1], s[0]);
    return Eigen::Vector3d((external + b.torque) / kInertia, b.phi_rate, s[0]);
  };
  return rt::rk4_step(f, 0.0, x, kDt);
}

TEST(WheelBrake, LockParametersGiveTheChosenFrequencyAndDamping) {
  EXPECT_NEAR(std::sqrt(kLock.stiffness / kInertia) / (2.0 * std::numbers::pi), 150.0, 1e-9);
  EXPECT_NEAR(kLock.damping / (2.0 * std::sqrt(kLock.stiffness * kInertia)), 1.0, 1e-12);
}

TEST(WheelBrake, HoldsATorqueBelowItsCapacityWithoutCreeping) {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  for (int k = 0; k < 4000; ++k) x = step(x, 1000.0, 800.0);  // 1 s to settle
  const double settled = x[2];
  for (int k = 0; k < 240'000; ++k) x = step(x, 1000.0, 800.0);  // 60 s more
  EXPECT_NEAR(x[2], 800.0 / kLock.stiffness, 1e-9);              // sits on its spring
  EXPECT_LT(std::abs(x[2] - settled), 1e-12);                    // and does not creep
  EXPECT_FALSE(wheel_brake(kLock, 1000.0, x[1], x[0]).sliding);
}

TEST(WheelBrake, SlidesAtExactlyItsCapacityAboveIt) {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  for (int k = 0; k < 4000; ++k) x = step(x, 1000.0, 1300.0);
  // Net 300 N·m accelerates the wheel: ω̇ = 300/3 = 100 rad/s²
  const double w0 = x[0];
  x = step(x, 1000.0, 1300.0);
  EXPECT_NEAR((x[0] - w0) / kDt, 100.0, 1e-6);
  const WheelBrakeOutput b = wheel_brake(kLock, 1000.0, x[1], x[0]);
  EXPECT_TRUE(b.sliding);
  EXPECT_DOUBLE_EQ(b.torque, -1000.0);
}

TEST(WheelBrake, StopsASpinningWheelWithoutReversing) {
  Eigen::Vector3d x(50.0, 0.0, 0.0);
  double max_angle = 0.0;
  for (int k = 0; k < 4 * 4000; ++k) {
    x = step(x, 600.0, 0.0);
    max_angle = std::max(max_angle, x[2]);
  }
  // 50 rad/s at 200 rad/s² stops in 0.25 s after 6.25 rad ...
  EXPECT_NEAR(max_angle, 50.0 * 50.0 / (2.0 * 200.0), 0.01);
  // ... then only the pads' elastic wind-up T/k is given back (0.2 mrad), critically damped
  EXPECT_LT(max_angle - x[2], 1.01 * 600.0 / kLock.stiffness);
  EXPECT_NEAR(x[0], 0.0, 1e-9);
  EXPECT_NEAR(x[1], 0.0, 1e-9);
}

TEST(WheelBrake, TorqueIsContinuousAtTheStickSlipBoundaryAndZeroWhenReleased) {
  const double phi = 900.0 / kLock.stiffness;
  const double omega_edge = (1000.0 - 900.0) / kLock.damping;  // |k·φ + c·ω| = T exactly
  const WheelBrakeOutput below = wheel_brake(kLock, 1000.0, phi, omega_edge * (1 - 1e-12));
  const WheelBrakeOutput above = wheel_brake(kLock, 1000.0, phi, omega_edge * (1 + 1e-12));
  EXPECT_NEAR(below.torque, above.torque, 1e-6);
  EXPECT_NEAR(below.phi_rate, above.phi_rate, 1e-6);
  const WheelBrakeOutput released = wheel_brake(kLock, 0.0, phi, 3.0);
  EXPECT_EQ(released.torque, 0.0);
  EXPECT_LT(released.phi_rate, 0.0);  // the wound-up pads relax
  EXPECT_EQ(wheel_brake(kLock, std::nan(""), phi, 3.0).torque, 0.0);
}

}  // namespace
}  // namespace hil::models
