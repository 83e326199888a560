// Torque–rpm table (models/drive/lookup_table.hpp) and the engine (models/drive/engine.hpp): the
// curve, the throttle scaling, the idle governor and the rev limiter that hold the rpm between its
// limits (AutoSim §4.4.5).

#include "models/drive/engine.hpp"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

#include <gtest/gtest.h>

#include "models/drive/powertrain_params.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr double kRpm = 2.0 * std::numbers::pi / 60.0;

TEST(LookupTable, InterpolatesLinearlyAndHoldsTheEnds) {
  const LookupTable t{{0.0, 10.0}, {1.0, 20.0}, {3.0, 0.0}};
  EXPECT_DOUBLE_EQ(t(0.5), 15.0);
  EXPECT_DOUBLE_EQ(t(2.0), 10.0);
  EXPECT_DOUBLE_EQ(t(1.0), 20.0);
  EXPECT_DOUBLE_EQ(t(-5.0), 10.0);
  EXPECT_DOUBLE_EQ(t(9.0), 0.0);
  EXPECT_DOUBLE_EQ(t(std::numeric_limits<double>::quiet_NaN()), 10.0);
  EXPECT_DOUBLE_EQ(t.argmax(), 1.0);
}

TEST(LookupTable, RejectsBadPoints) {
  EXPECT_THROW((LookupTable{{1.0, 0.0}, {1.0, 2.0}}), std::invalid_argument);
  EXPECT_THROW((LookupTable{{0.0, std::numeric_limits<double>::infinity()}}),
               std::invalid_argument);
  EXPECT_THROW(LookupTable(std::initializer_list<std::pair<double, double>>{}),
               std::invalid_argument);
}

TEST(Engine, TorqueIsThrottleTimesTheCurvePlusLosses) {
  const EngineParams e = hmmwv_powertrain().engine;
  // M998 6.2 L at 1600 rev/min: 330 N·m at the flywheel; losses −50 − 20·0.6 = −62 N·m, so
  // the full-load table holds 330 + 62 = 392 N·m
  const double w = 1600 * kRpm;
  EXPECT_NEAR(engine_torque(e, 1.0, w), 330.0, 1e-9);
  EXPECT_NEAR(engine_torque(e, 0.5, w), 0.5 * 392.0 - 62.0, 1e-9);
  EXPECT_NEAR(engine_torque(e, 0.0, w), -62.0, 1e-9);  // above idle: the governor is off
}

// The published ratings of the M998's 6.2 L diesel (docs/models.md "Combustion powertrain"):
// 150 hp at 3600 rev/min (US Army fact file), 250 lb·ft peak (the table's 339 N·m), full
// load up to the governed 3600 rev/min and no fuel at 3700.
TEST(Engine, TheHmmwvEngineGivesItsPublishedRatingsAtTheFlywheel) {
  const EngineParams e = hmmwv_powertrain().engine;
  constexpr double kHp = 745.69987;       // W
  constexpr double kLbFt = 1.3558179483;  // N·m
  const double rated = 3600 * kRpm;
  EXPECT_NEAR(engine_torque(e, 1.0, rated) * rated, 150.0 * kHp, 0.002 * 150.0 * kHp);
  EXPECT_NEAR(engine_torque(e, 1.0, 2000 * kRpm), 250.0 * kLbFt, 0.1);
  for (int rpm = 800; rpm <= 3600; rpm += 100) {  // the peak is the published one
    EXPECT_LE(engine_torque(e, 1.0, rpm * kRpm), 339.0 + 1e-9) << rpm;
  }
  EXPECT_NEAR(engine_throttle(e, 1.0, rated), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(engine_throttle(e, 1.0, 3700 * kRpm), 0.0);
}

/// Engine alone (neutral), throttle held, for `seconds`; returns the final speed.
double free_engine(const EngineParams& e, double throttle, double w0, double seconds) {
  auto f = [&](double, const double& w) { return engine_torque(e, throttle, w) / e.inertia; };
  constexpr double kDt = 1e-3;
  double w = w0;
  for (int k = 0; k < static_cast<int>(seconds / kDt); ++k) w = rt::rk4_step(f, k * kDt, w, kDt);
  return w;
}

TEST(Engine, IdleGovernorHoldsIdleWithoutThrottle) {
  for (const EngineParams& e : {hmmwv_powertrain().engine, autosim_car_powertrain().engine}) {
    EXPECT_NEAR(free_engine(e, 0.0, 2.0 * e.idle_speed, 10.0), e.idle_speed,
                0.03 * e.idle_speed);  // proportional governor: a little droop
    EXPECT_NEAR(free_engine(e, 0.0, 0.3 * e.idle_speed, 10.0), e.idle_speed, 0.03 * e.idle_speed);
  }
}

TEST(Engine, RevLimiterHoldsTheRpmAtTheLimit) {
  const EngineParams e = autosim_car_powertrain().engine;
  const double w = free_engine(e, 1.0, e.idle_speed, 5.0);
  EXPECT_LE(w, e.rev_limit);
  EXPECT_GE(w, e.rev_limit - e.rev_limit_band);
  EXPECT_DOUBLE_EQ(engine_throttle(e, 1.0, e.rev_limit + 1.0), 0.0);
}

TEST(Engine, NonFiniteThrottleCountsAsZero) {
  const EngineParams e = autosim_car_powertrain().engine;
  const double w = 3000 * kRpm;
  EXPECT_DOUBLE_EQ(engine_torque(e, std::numeric_limits<double>::quiet_NaN(), w),
                   engine_torque(e, 0.0, w));
}

}  // namespace
}  // namespace hil::models
