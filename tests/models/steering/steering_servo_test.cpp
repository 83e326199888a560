// Steering actuator step responses (models/steering/steering_servo.hpp), integrated with rt_core
// RK4.

#include "models/steering/steering_servo.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr double kDt = 1e-3;

/// Integrates the servo for `seconds` towards `cmd`, calling `each(t, delta)` per step.
template <class Each>
double run(const SteeringServoParams& p, double delta, double cmd, double seconds, Each each) {
  auto f = [&](double, const double& x) { return steering_servo_rate(p, x, cmd); };
  const int steps = static_cast<int>(std::lround(seconds / kDt));
  for (int i = 0; i < steps; ++i) {
    delta = rt::rk4_step(f, i * kDt, delta, kDt);
    each((i + 1) * kDt, delta);
  }
  return delta;
}

TEST(SteeringServo, UnlimitedStepReaches63PercentAtTau) {
  const SteeringServoParams p{.time_constant = 0.05, .max_rate = 100.0, .max_angle = 0.5};
  const double at_tau = run(p, 0.0, 0.1, p.time_constant, [](double, double) {});
  EXPECT_NEAR(at_tau, 0.1 * (1.0 - std::exp(-1.0)), 1e-6);  // 63.2 %
}

TEST(SteeringServo, RateLimitedStepMovesAtConstantRate) {
  const SteeringServoParams p{.time_constant = 0.05, .max_rate = 1.0, .max_angle = 0.5};
  // Error/τ = 0.4/0.05 = 8 rad/s ≫ 1 rad/s: limited until within 0.05 rad of the target.
  const double after =
      run(p, 0.0, 0.4, 0.2, [](double t, double d) { EXPECT_NEAR(d, 1.0 * t, 1e-12) << t; });
  EXPECT_NEAR(after, 0.2, 1e-12);
}

TEST(SteeringServo, NeverGoesBeyondMaxAngle) {
  const SteeringServoParams p{.time_constant = 0.05, .max_rate = 5.0, .max_angle = 0.5};
  const double final_angle =
      run(p, 0.0, 3.0, 2.0, [&](double t, double d) { EXPECT_LE(d, p.max_angle) << t; });
  EXPECT_NEAR(final_angle, p.max_angle, 1e-9);
  const double negative =
      run(p, 0.0, -3.0, 2.0, [&](double t, double d) { EXPECT_GE(d, -p.max_angle) << t; });
  EXPECT_NEAR(negative, -p.max_angle, 1e-9);
}

TEST(SteeringServo, NonFiniteCommandHoldsTheAngle) {
  const SteeringServoParams p{};
  EXPECT_EQ(steering_servo_rate(p, 0.2, std::numeric_limits<double>::quiet_NaN()), 0.0);
  EXPECT_EQ(steering_servo_rate(p, 0.2, std::numeric_limits<double>::infinity()), 0.0);
}

}  // namespace
}  // namespace hil::models
