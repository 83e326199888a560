// Discrete PI with clamping anti-windup (models/drive/pi_controller.hpp), one cascade sample
// (models/drive/drive_controller.hpp) and the decimated, zero-order-held controller update of the
// electric drive (models/drive/electric_drive.hpp).

#include "models/drive/drive_controller.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "models/drive/electric_drive.hpp"
#include "models/drive/electric_drive_params.hpp"
#include "models/drive/pi_controller.hpp"

namespace hil::models {
namespace {

TEST(PiController, ForwardEulerIntegratorLagsOneSample) {
  const PiGains g{.kp = 2.0, .ki = 10.0};
  PiState s;
  // u[0] = kp·e (I[0] = 0), then I[1] = ki·T·e
  EXPECT_DOUBLE_EQ(pi_step(g, s, 1.0, 0.01, -100.0, 100.0), 2.0);
  EXPECT_DOUBLE_EQ(s.integrator, 0.1);
  EXPECT_DOUBLE_EQ(pi_step(g, s, 1.0, 0.01, -100.0, 100.0), 2.1);
  EXPECT_DOUBLE_EQ(s.integrator, 0.2);
}

TEST(PiController, SaturatedOutputFreezesTheIntegratorWhileTheErrorPushesOut) {
  const PiGains g{.kp = 1.0, .ki = 100.0};
  PiState s{.integrator = 0.5};
  for (int k = 0; k < 100; ++k) EXPECT_DOUBLE_EQ(pi_step(g, s, 5.0, 0.01, -1.0, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(s.integrator, 0.5);  // frozen: no wind-up
  // Error reverses: it integrates again at once, and the output leaves the limit.
  EXPECT_LT(pi_step(g, s, -0.6, 0.01, -1.0, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(s.integrator, 0.5 - 0.6);
}

TEST(PiController, IntegratorFollowsAShrinkingLimit) {
  const PiGains g{.kp = 0.0, .ki = 1.0};
  PiState s{.integrator = 40.0};
  (void)pi_step(g, s, 0.0, 0.001, -20.0, 20.0);  // e.g. the bus voltage sagged to 20 V
  EXPECT_DOUBLE_EQ(s.integrator, 20.0);
}

TEST(CascadeController, DutyIsVoltageReferenceOverBusVoltage) {
  const CascadeControllerParams p{
      .speed = {.kp = 1.0, .ki = 0.0}, .current = {.kp = 0.5, .ki = 0.0}, .current_limit = 60.0};
  CascadeControllerState s;
  const CascadeMeasurement m{.speed_ref = 10.0, .speed = 0.0, .current = 2.0, .bus_voltage = 48.0};
  const double duty = cascade_controller_step(p, s, m, 1e-3);
  EXPECT_DOUBLE_EQ(s.current_ref, 10.0);                // kp·(10 − 0)
  EXPECT_DOUBLE_EQ(s.voltage_ref, 0.5 * (10.0 - 2.0));  // kp·(i_ref − i)
  EXPECT_DOUBLE_EQ(duty, 4.0 / 48.0);
}

TEST(CascadeController, LimitsCurrentReferenceAndDuty) {
  const CascadeControllerParams p{.speed = {.kp = 100.0, .ki = 0.0},
                                  .current = {.kp = 100.0, .ki = 0.0},
                                  .current_limit = 60.0};
  CascadeControllerState s;
  const double duty = cascade_controller_step(
      p, s, {.speed_ref = 200.0, .speed = 0.0, .current = 0.0, .bus_voltage = 48.0}, 1e-3);
  EXPECT_DOUBLE_EQ(s.current_ref, 60.0);
  EXPECT_DOUBLE_EQ(s.voltage_ref, 48.0);
  EXPECT_DOUBLE_EQ(duty, 1.0);
  const double back = cascade_controller_step(
      p, s, {.speed_ref = -200.0, .speed = 0.0, .current = 0.0, .bus_voltage = 48.0}, 1e-3);
  EXPECT_DOUBLE_EQ(s.current_ref, -60.0);
  EXPECT_DOUBLE_EQ(back, -1.0);
}

TEST(CascadeController, DeratingLimitsMotoringButNotRegeneration) {
  const CascadeControllerParams p{
      .speed = {.kp = 100.0, .ki = 0.0}, .current = {.kp = 1.0, .ki = 0.0}, .current_limit = 60.0};
  CascadeControllerState s;
  // Turning forward, asking for more speed: motoring, limited to 25 % of I_max.
  (void)cascade_controller_step(
      p, s,
      {.speed_ref = 200.0, .speed = 100.0, .bus_voltage = 43.0, .motoring_limit_fraction = 0.25},
      1e-3);
  EXPECT_DOUBLE_EQ(s.current_ref, 15.0);
  // Turning forward, asking to slow down: regenerating, full −I_max.
  (void)cascade_controller_step(
      p, s,
      {.speed_ref = 0.0, .speed = 100.0, .bus_voltage = 43.0, .motoring_limit_fraction = 0.25},
      1e-3);
  EXPECT_DOUBLE_EQ(s.current_ref, -60.0);
}

TEST(ElectricDriveController, ADecimatedSampleIntegratesOverItsLongerSampleTime) {
  ElectricDriveParams p = ravon_drive_params();
  p.controller_decimation = 3;
  p.units[0].controller.speed = {.kp = 0.0, .ki = 1.0};  // integrator only: I += T·e
  const ElectricDriveState x = electric_drive_initial_state(p, 1.0);
  ElectricDriveControllerState s;
  WheelValues omega{};
  WheelValues ref{};
  ref[0] = 1.0;  // wheel speed 1 rad/s = 59 rad/s at the rotor
  constexpr double kDt = 250e-6;
  for (int k = 0; k < 3; ++k) {  // sampled on ticks 0, 3, 6 (the caller keeps the rate)
    const double before = s.motors[0].speed.integrator;
    const WheelValues duty = electric_drive_controller_sample(p, s, x, omega, ref, kDt);
    EXPECT_NEAR(s.motors[0].speed.integrator - before, 3.0 * kDt * 59.0, 1e-12) << k;  // 3·dt
    EXPECT_EQ(duty[0], s.duty[0]) << k;  // held in the state until the next sample
  }
}

TEST(ElectricDriveController, NonFiniteReferenceHoldsThePreviousOne) {
  const ElectricDriveParams p = ravon_drive_params();
  const ElectricDriveState x = electric_drive_initial_state(p, 1.0);
  ElectricDriveControllerState s;
  WheelValues ref{};
  ref[1] = 2.0;
  (void)electric_drive_controller_sample(p, s, x, {}, ref, 250e-6);
  ref[1] = std::numeric_limits<double>::quiet_NaN();
  const WheelValues duty = electric_drive_controller_sample(p, s, x, {}, ref, 250e-6);
  EXPECT_DOUBLE_EQ(s.motors[1].speed_ref, 2.0 * 59.0);
  EXPECT_TRUE(std::isfinite(duty[1]));
  EXPECT_GT(duty[1], 0.0);
}

}  // namespace
}  // namespace hil::models
