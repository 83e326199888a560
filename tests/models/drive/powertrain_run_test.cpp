// AutoSim's gear tests (autosim-physics-thesis.txt §7.1): a straight flat road, accelerator
// fully pressed, the speeds at which the automatic up-shifts and the time to travel 1000 m —
// automatic, a manual driver, first gear only — for the AutoSim-style car, and the same for
// the HMMWV (M998) powertrain. Prints the table of docs/models.md.

#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>

#include "models/drive/powertrain_params.hpp"
#include "tests/models/drive/point_mass_car.hpp"

namespace hil::models {
namespace {

using testing::car_tire;
using testing::PointMassCar;

constexpr double kDt = 250e-6;
constexpr double kLimit = 300.0;  // [s]

void print(const char* label, const PointMassCar& car, double time) {
  std::printf("[%s] 1000 m in %.1f s, %.1f km/h at the line\n", label, time,
              3.6 * car.x[PointMassCar::kV]);
  for (const testing::ShiftEvent& e : car.shifts) {
    std::printf("  %5.2f s  %d -> %d  at %6.1f km/h, input %5.0f rev/min\n", e.time, e.from, e.to,
                e.speed_kmh, e.input_rpm);
  }
}

/// Up-shift vehicle speeds in order; expects 1→2, 2→3, … without down-shifts in between.
std::vector<double> upshift_speeds(const PointMassCar& car) {
  std::vector<double> v;
  for (const testing::ShiftEvent& e : car.shifts) {
    EXPECT_EQ(e.to, e.from + 1) << "down-shift at " << e.time << " s";
    if (e.from >= 1) v.push_back(e.speed_kmh);
  }
  return v;
}

double automatic_car_time(PointMassCar& car) {
  const double t = car.time_to(1000.0, kLimit, kDt, {.throttle = 1.0});
  print("AutoSim car, automatic", car, t);
  return t;
}

TEST(AutoSimGearTests, AutomaticUpshiftSpeedsIncreaseAndTheCarReaches1000m) {
  PointMassCar car(autosim_car_powertrain(ShiftMode::automatic), car_tire(), 1200.0);
  const double t = automatic_car_time(car);
  EXPECT_LT(t, 60.0);
  const std::vector<double> v = upshift_speeds(car);
  ASSERT_GE(v.size(), 3U);
  for (std::size_t k = 1; k < v.size(); ++k) EXPECT_GT(v[k], v[k - 1]) << k;
  // AutoSim's rule: each up-shift at the input speed of maximum torque (4000 rev/min)
  for (const testing::ShiftEvent& e : car.shifts) EXPECT_NEAR(e.input_rpm, 4000.0, 40.0);
}

TEST(AutoSimGearTests, FirstGearOnlyIsSlowerThanTheAutomatic) {
  PointMassCar automatic(autosim_car_powertrain(ShiftMode::automatic), car_tire(), 1200.0);
  const double t_auto = automatic.time_to(1000.0, kLimit, kDt, {.throttle = 1.0});
  PointMassCar first(autosim_car_powertrain(ShiftMode::manual), car_tire(), 1200.0);
  first.tick({.throttle = 0.0, .shift_up = true}, kDt);  // N → 1, then never again
  const double t_first = first.time_to(1000.0, kLimit, kDt, {.throttle = 1.0});
  print("AutoSim car, first gear only", first, t_first);
  EXPECT_LT(t_first, kLimit);
  EXPECT_GT(t_first, t_auto + 5.0);
  // AutoSim §4.4.5 manual: at the limit "the rpm value remains at that value"
  const PowertrainOutputs o =
      powertrain_outputs(first.powertrain, first.discrete, PointMassCar::powertrain_state(first.x),
                         first.wheel_omegas(first.x));
  EXPECT_NEAR(o.engine_speed, first.powertrain.engine.rev_limit,
              first.powertrain.engine.rev_limit_band);
}

TEST(AutoSimGearTests, ManualDriverShiftingLateBeatsTheTorquePeakRule) {
  PointMassCar car(autosim_car_powertrain(ShiftMode::manual), car_tire(), 1200.0);
  car.tick({.shift_up = true}, kDt);
  bool lever = false;
  while (car.x[PointMassCar::kX] < 1000.0 && car.t < kLimit) {
    const PowertrainOutputs o =
        powertrain_outputs(car.powertrain, car.discrete, PointMassCar::powertrain_state(car.x),
                           car.wheel_omegas(car.x));
    // The driver pulls the lever at 6000 rev/min and lets go in between.
    lever = !lever && o.input_speed > 6000.0 * std::numbers::pi / 30.0 && o.gear < 5;
    car.tick({.throttle = 1.0, .shift_up = lever}, kDt);
  }
  print("AutoSim car, manual at 6000 rev/min", car, car.t);
  PointMassCar automatic(autosim_car_powertrain(ShiftMode::automatic), car_tire(), 1200.0);
  const double t_auto = automatic.time_to(1000.0, kLimit, kDt, {.throttle = 1.0});
  EXPECT_LT(car.t, t_auto);  // the power peak is above the torque peak
  EXPECT_GE(car.shifts.size(), 4U);
}

TEST(HmmwvGearTests, AutomaticUpshiftSpeedsIncreaseAndItReaches1000m) {
  TireParams tire;  // tire_params.hpp defaults: HMMWV 37x12.5R16.5
  PointMassCar car(hmmwv_powertrain(), tire, 2600.0);
  car.drag_area = 2.5;  // assumed C_d·A of a HMMWV [m²]
  const double t = car.time_to(1000.0, kLimit, kDt, {.throttle = 1.0});
  print("HMMWV (M998 powertrain), automatic", car, t);
  EXPECT_LT(t, 90.0);
  const std::vector<double> v = upshift_speeds(car);
  ASSERT_EQ(v.size(), 2U);  // three forward gears
  EXPECT_GT(v[1], v[0]);
}

}  // namespace
}  // namespace hil::models
