// Energy balance of the whole electric drive (models/drive/electric_drive.hpp) over a 20 s drive
// cycle: four RAVON drives on wheels that carry a quarter of a 750 kg vehicle each, up and
// down a 10 % grade, forwards and backwards, with regeneration. Every power is integrated in
// the same RK4 step as the states (drive_rig.hpp), so the balance tests the model's
// consistency, not the quadrature.

#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>

#include "models/drive/electric_drive_params.hpp"
#include "tests/models/drive/drive_rig.hpp"

namespace hil::models {
namespace {

using testing::DriveRig;
using testing::EnergyTerm;

constexpr double kDt = 250e-6;
constexpr double kMass = 750.0;   // RAVON-like vehicle [kg] (assumed)
constexpr double kRadius = 0.35;  // wheel radius [m] (assumed)
constexpr double kGravity = 9.81;
constexpr double kRollingResistance = 0.03;

/// Rotor speed reference of the cycle as a fraction of 2000 rev/min.
double cycle_ref(double t) {
  if (t < 3.0) return 0.8 * t / 3.0;                  // accelerate
  if (t < 12.0) return 0.8;                           // cruise, uphill then downhill
  if (t < 14.0) return 0.8 - 0.5 * (t - 12.0) / 2.0;  // brake (regenerate)
  if (t < 16.0) return 0.3;
  if (t < 18.0) return 0.3 - 0.5 * (t - 16.0) / 2.0;  // through zero into reverse
  return -0.2;
}

double grade(double t) {
  if (t >= 5.0 && t < 9.0) return 0.10;    // uphill
  if (t >= 9.0 && t < 13.0) return -0.10;  // downhill: the wheels back-drive the motors
  return 0.0;
}

DriveRig cycle_rig(const ElectricDriveParams& p) {
  DriveRig rig(p, 0.9);
  rig.wheel_inertia = 1.0 + kMass * kRadius * kRadius / 4.0;  // wheel + quarter vehicle
  rig.load = [](double t, std::size_t j, double omega) {
    const double share = kMass * kGravity / 4.0 * (1.0 + 0.1 * static_cast<double>(j) - 0.15);
    const double theta = std::atan(grade(t));
    const double rolling = kRollingResistance * share * std::cos(theta) * std::tanh(omega / 0.5);
    return -kRadius * (rolling + share * std::sin(theta));
  };
  return rig;
}

double run_cycle(DriveRig& rig) {
  const double stored_before = rig.stored_energy();
  const int ticks = static_cast<int>(std::lround(20.0 / kDt));
  for (int k = 0; k < ticks; ++k) {
    WheelValues ref{};
    ref.fill(cycle_ref(rig.t) * kRavonMaxRotorSpeed / 59.0);
    rig.tick(ref, kDt);
  }
  return rig.stored_energy() - stored_before;
}

void expect_balance(const DriveRig& rig, double stored_change, const char* label) {
  const double out = rig.energy(testing::kBatteryOut);
  double accounted = stored_change;
  for (const EnergyTerm e :
       {testing::kCopper, testing::kMotorFriction, testing::kConverter, testing::kChopper,
        testing::kGear, testing::kBearing, testing::kLoad}) {
    accounted += rig.energy(e);
  }
  std::printf(
      "[%s] battery out %.1f J = load %.1f + copper %.1f + motor friction %.1f + converter "
      "%.1f + chopper %.1f + gear %.1f + bearing %.1f + stored %.1f; residual %.3g J (%.2g)\n",
      label, out, rig.energy(testing::kLoad), rig.energy(testing::kCopper),
      rig.energy(testing::kMotorFriction), rig.energy(testing::kConverter),
      rig.energy(testing::kChopper), rig.energy(testing::kGear), rig.energy(testing::kBearing),
      stored_change, out - accounted, (out - accounted) / out);
  EXPECT_GT(out, 1000.0);  // a real cycle, not a trickle
  EXPECT_NEAR(out, accounted, 0.005 * out);
  for (const EnergyTerm e : {testing::kCopper, testing::kMotorFriction, testing::kConverter,
                             testing::kChopper, testing::kGear, testing::kBearing}) {
    EXPECT_GE(rig.energy(e), 0.0) << e;  // losses never generate energy
  }
}

TEST(ElectricDriveEnergy, TwentySecondCycleBalancesWithRegeneration) {
  DriveRig rig = cycle_rig(ravon_drive_params());
  const double stored = run_cycle(rig);
  expect_balance(rig, stored, "regen");
  EXPECT_GT(rig.energy(testing::kGear), 0.0);
  EXPECT_EQ(rig.energy(testing::kChopper), 0.0);
}

TEST(ElectricDriveEnergy, TwentySecondCycleBalancesWithLimitedRegeneration) {
  ElectricDriveParams p = ravon_drive_params();
  p.converter.max_regen_current = 5.0;  // the rest goes to the brake chopper
  DriveRig rig = cycle_rig(p);
  const double stored = run_cycle(rig);
  expect_balance(rig, stored, "regen limited");
  EXPECT_GT(rig.energy(testing::kChopper), 0.0);
}

}  // namespace
}  // namespace hil::models
