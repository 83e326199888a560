// Ruling 3: start, stop and stay parked without creep or chatter. One tire carrying a
// quarter of a car, integrated with RK4 at the rig's base period of 250 µs.

#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/tire/quarter_car.hpp"

namespace hil::models {
namespace {

using testing::QuarterCar;

constexpr double kDt = 250e-6;

struct Trace {
  double max_abs_x = 0.0;
  double x_at_1s = 0.0;
  int fx_sign_changes = 0;
  Eigen::Vector4d final_state = Eigen::Vector4d::Zero();
};

/// Runs the rig for `seconds` from x (default: at rest); counts the sign changes of Fx
/// between excursions beyond ±fx_threshold [N].
Trace run(const QuarterCar& car, double seconds, Eigen::Vector4d x = Eigen::Vector4d::Zero(),
          double fx_threshold = 1.0) {
  Trace trace;
  int last_sign = 0;
  const auto steps = static_cast<long>(std::lround(seconds / kDt));
  for (long k = 0; k < steps; ++k) {
    const double t = static_cast<double>(k) * kDt;
    x = car.step(t, x, kDt);
    trace.max_abs_x = std::max(trace.max_abs_x, std::abs(x[0]));
    if (k + 1 == static_cast<long>(std::lround(1.0 / kDt))) trace.x_at_1s = x[0];
    const double Fx = car.tire_at(x).Fx;
    if (std::abs(Fx) > fx_threshold) {
      const int sign = Fx > 0.0 ? 1 : -1;
      if (last_sign != 0 && sign != last_sign) ++trace.fx_sign_changes;
      last_sign = sign;
    }
  }
  trace.final_state = x;
  return trace;
}

TEST(TireLowSpeed, LockedWheelHoldsOnA15PercentGradeForAMinuteWithinOneMillimetre) {
  for (const Surface s : {Surface::dry, Surface::wet}) {
    QuarterCar car{.surface = {.type = s}, .grade = 0.15, .wheel_locked = true};
    const Trace trace = run(car, 60.0);
    // Placed at rest: the tire deflects elastically (≈ 0.15/300 m = 0.5 mm), then nothing moves.
    EXPECT_LT(trace.max_abs_x, 1e-3) << surface_name(s);
    EXPECT_LT(std::abs(trace.final_state[0] - trace.x_at_1s), 1e-6) << surface_name(s);
    EXPECT_LT(std::abs(trace.final_state[1]), 1e-6) << surface_name(s);
  }
}

TEST(TireLowSpeed, SnowHoldsOnA15PercentGradeButIceCannot) {
  QuarterCar car{.surface = {.type = Surface::snow}, .grade = 0.15, .wheel_locked = true};
  const Trace snow = run(car, 20.0);
  EXPECT_LT(std::abs(snow.final_state[0] - snow.x_at_1s), 1e-5);  // μ = 0.3 > 0.15
  car.surface.type = Surface::ice;                                // μ = 0.1 < 0.15: slides
  const Trace ice = run(car, 5.0);
  EXPECT_LT(ice.final_state[0], -1.0);
  EXPECT_LT(ice.final_state[1], -1.0);
}

TEST(TireLowSpeed, DrivenWheelStartsFromRestWithoutChatter) {
  QuarterCar car{.surface = {.type = Surface::dry}};
  car.tire.spin_inertia = 1.0;
  car.torque = [](double, double) { return 300.0; };
  const Trace trace = run(car, 5.0);
  EXPECT_EQ(trace.fx_sign_changes, 0);
  // 300 N·m at r ≈ 0.465 m on 400 kg (+ I/r²): about 1.6 m/s², so about 8 m/s after 5 s.
  EXPECT_NEAR(trace.final_state[1], 8.0, 0.5);
  // Rolling at small slip, not spinning up: rω within 2 % of v.
  const double r = car.tire_at(trace.final_state).r_eff;
  EXPECT_NEAR(r * trace.final_state[2] / trace.final_state[1], 1.0, 0.02);
}

TEST(TireLowSpeed, DrivenWheelClimbsAndRollsBackSmoothlyOnSand) {
  QuarterCar car{.surface = {.type = Surface::sand, .cone_index_pa = 600e3}, .grade = 0.05};
  car.tire.spin_inertia = 1.0;
  car.torque = [](double, double) { return 600.0; };
  const Trace trace = run(car, 5.0);
  EXPECT_EQ(trace.fx_sign_changes, 0);
  EXPECT_GT(trace.final_state[1], 1.0);  // net traction beats resistance plus the grade
}

TEST(TireLowSpeed, LockedWheelSkidsToAStopAndStaysStopped) {
  QuarterCar car{.surface = {.type = Surface::dry}, .wheel_locked = true};
  const double N = car.mass * testing::kGravity;
  const Trace trace = run(car, 10.0, Eigen::Vector4d(0.0, 5.0, 0.0, 0.0), 0.1 * N);
  // Skids at μ(s = −1) ≈ 0.88 from 5 m/s: about 1.45 m.
  EXPECT_NEAR(trace.final_state[0], 5.0 * 5.0 / (2.0 * 0.88 * testing::kGravity), 0.15);
  EXPECT_LT(std::abs(trace.final_state[1]), 1e-6);
  // The deflected patch (μN/c ≈ 3 mm) springs back: the car rocks back a few millimetres in a
  // damped 9 Hz swing (ζ ≈ 0.25), so Fx crosses ±10 % of the load at most twice; no chatter.
  EXPECT_LE(trace.fx_sign_changes, 2);
  EXPECT_LT(trace.max_abs_x - trace.final_state[0], 5e-3);
  QuarterCar parked = car;
  const Trace after = run(parked, 10.0, trace.final_state);
  EXPECT_LT(std::abs(after.final_state[0] - trace.final_state[0]), 1e-4);
}

TEST(TireLowSpeed, BrakeTorqueStopsARollingWheelAndTheVehicleStaysStopped) {
  // Brake as the chassis will model it: torque opposing ω, saturating smoothly near ω = 0.
  QuarterCar car{.surface = {.type = Surface::wet}};
  car.tire.spin_inertia = 1.0;
  car.torque = [](double, double omega) { return -2000.0 * std::tanh(omega / 0.5); };
  const double omega0 = 10.0 / 0.4651;
  const Trace trace = run(car, 10.0, Eigen::Vector4d(0.0, 10.0, omega0, 0.0));
  EXPECT_LT(std::abs(trace.final_state[1]), 1e-3);
  EXPECT_LT(std::abs(trace.final_state[2]), 1e-2);
  EXPECT_LE(trace.fx_sign_changes, 2);
}

}  // namespace
}  // namespace hil::models
