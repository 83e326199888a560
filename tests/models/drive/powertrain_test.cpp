// The assembled combustion powertrain (models/drive/powertrain.hpp): open differential split,
// neutral, gear efficiency by direction of power flow, continuous shifts and launches.

#include "models/drive/powertrain.hpp"

#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "models/drive/powertrain_params.hpp"
#include "tests/models/drive/point_mass_car.hpp"

namespace hil::models {
namespace {

using L = PowertrainLayout;
using testing::car_tire;
using testing::PointMassCar;

constexpr double kDt = 250e-6;

TEST(Powertrain, OpenDifferentialSplitsTheTorqueEquallyWhateverTheWheelSpeeds) {
  const PowertrainParams p = hmmwv_powertrain();
  PowertrainState x = powertrain_initial_state(p);
  x[L::kPropshaftSpeed] = 60.0;
  x[L::kShaftTwist] = 0.2;
  const WheelValues w{10.0, 14.0, 2.0, 11.0};  // one wheel nearly stopped, one spinning
  const PowertrainRates r = powertrain_derivative(p, x, powertrain_initial_discrete_state(p), w);
  const double mean = (10.0 + 14.0 + 2.0 + 11.0) / 4.0;
  const double r_d = 1.0 * 2.73 * 1.92;  // transfer case (high), differentials, geared hubs
  EXPECT_DOUBLE_EQ(p.transmission.final_drive, r_d);
  const double relative = 60.0 - r_d * mean;  // propshaft − final drive · carrier
  EXPECT_DOUBLE_EQ(r.x_dot[L::kShaftTwist], relative);
  EXPECT_DOUBLE_EQ(r.shaft_torque, 1500.0 * 0.2 + 60.0 * relative);
  for (std::size_t j = 0; j < 4; ++j) {
    EXPECT_DOUBLE_EQ(r.drive_torque[j], r_d * r.shaft_torque / 4.0) << j;
  }
  EXPECT_EQ(r.drive_torque[4], 0.0);
}

TEST(Powertrain, NeutralLeavesTheEngineFree) {
  for (PowertrainParams p : {hmmwv_powertrain(), autosim_car_powertrain()}) {
    PowertrainDiscreteState d = powertrain_initial_discrete_state(p);
    d.transmission.gear = 0;
    d.throttle = 1.0;
    PowertrainState x = powertrain_initial_state(p);
    x[L::kEngineSpeed] = 200.0;
    const PowertrainRates r = powertrain_derivative(p, x, d, {});
    EXPECT_EQ(r.pump_torque, 0.0);
    EXPECT_DOUBLE_EQ(r.x_dot[L::kEngineSpeed],
                     engine_torque(p.engine, 1.0, 200.0) / p.engine.inertia);
  }
}

TEST(Powertrain, GearEfficiencyFollowsThePowerFlow) {
  const PowertrainParams p = autosim_car_powertrain(ShiftMode::manual);
  PowertrainDiscreteState d = powertrain_initial_discrete_state(p);
  d.transmission.gear = 2;  // r_g = 2.1, clutch fully engaged long ago
  PowertrainState x = powertrain_initial_state(p);
  x[L::kEngineSpeed] = 300.0;
  x[L::kPropshaftSpeed] = 300.0 / 2.1;  // clutch locked: no slip
  const double J = p.output_inertia + p.input_inertia * 2.1 * 2.1;
  for (const double twist : {0.05, -0.05}) {  // engine drives / engine brakes
    x[L::kClutchTwist] = twist;
    const PowertrainRates r = powertrain_derivative(p, x, d, {});
    const double eta = twist > 0.0 ? 0.9 : 1.0 / 0.9;
    EXPECT_NEAR(r.input_torque, 2000.0 * twist, 1e-9);
    EXPECT_NEAR(r.x_dot[L::kPropshaftSpeed], (2.1 * eta * r.input_torque - r.shaft_torque) / J,
                1e-9);
  }
}

/// Full-throttle run; the largest per-tick change of engine speed and of the wheel torque.
struct Smoothness {
  double max_engine_step = 0.0;  ///< [rad/s per tick]
  double max_torque_step = 0.0;  ///< [N·m per tick]
  double min_engine_speed = 1e9;
  int shifts = 0;
};

Smoothness run_smoothness(PointMassCar& car, double seconds) {
  Smoothness s;
  double last_w = car.x[PointMassCar::kPowertrain + L::kEngineSpeed];
  double last_q = 0.0;
  const int ticks = static_cast<int>(std::lround(seconds / kDt));
  for (int k = 0; k < ticks; ++k) {
    car.tick({.throttle = 1.0}, kDt);
    const double w = car.x[PointMassCar::kPowertrain + L::kEngineSpeed];
    const double q =
        powertrain_outputs(car.powertrain, car.discrete, PointMassCar::powertrain_state(car.x),
                           car.wheel_omegas(car.x))
            .wheel_torque[0];
    s.max_engine_step = std::max(s.max_engine_step, std::abs(w - last_w));
    if (k > 0) s.max_torque_step = std::max(s.max_torque_step, std::abs(q - last_q));
    s.min_engine_speed = std::min(s.min_engine_speed, w);
    last_w = w;
    last_q = q;
  }
  s.shifts = static_cast<int>(car.shifts.size());
  std::printf(
      "engine step %.3g rad/s, wheel torque step %.3g N·m per tick, propshaft %.0f rad/s²\n",
      s.max_engine_step, s.max_torque_step, car.max_propshaft_acceleration);
  return s;
}

TEST(Powertrain, ClutchLaunchAndShiftsAreContinuous) {
  PointMassCar car(autosim_car_powertrain(), car_tire(), 1200.0);
  const Smoothness s = run_smoothness(car, 25.0);
  EXPECT_GE(s.shifts, 3);
  // docs/models.md "Combustion powertrain": no state jumps, bounded torque steps per tick and
  // finite accelerations (a rigid ratio change would jump ω_p by ~100 rad/s in one 250 µs
  // tick: 4e5 rad/s²)
  EXPECT_LT(s.max_engine_step, 1.0);    // rad/s in 250 µs
  EXPECT_LT(s.max_torque_step, 100.0);  // N·m at the wheel in 250 µs
  EXPECT_LT(car.max_propshaft_acceleration, 5000.0);
  EXPECT_GT(s.min_engine_speed, 0.8 * car.powertrain.engine.idle_speed);  // never stalls
}

TEST(Powertrain, TorqueConverterLaunchAndShiftsAreContinuous) {
  TireParams hmmwv_tire;  // tire_params.hpp defaults: the HMMWV 37x12.5R16.5
  PointMassCar car(hmmwv_powertrain(), hmmwv_tire, 2600.0);
  car.drag_area = 2.5;
  const Smoothness s = run_smoothness(car, 25.0);
  EXPECT_GE(s.shifts, 2);
  EXPECT_LT(s.max_engine_step, 1.0);
  EXPECT_LT(s.max_torque_step, 100.0);
  EXPECT_LT(car.max_propshaft_acceleration, 5000.0);
}

}  // namespace
}  // namespace hil::models
