// The combustion drive's speed cascade (tools/ecu/speed_controller.hpp) on a point-mass plant
// with what makes a combustion drive hard to hold at speed: a lag between the pedal and the
// drive force, a dead band at the bottom of the throttle, and a grade. It must hold the
// reference with no steady offset on every grade (the lower loop's integral finds the pedal),
// and stay within its pedal's stops.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tools/ecu/speed_controller.hpp"

namespace hil::ecu {
namespace {

constexpr double kG = 9.80665;
constexpr double kCycle = 0.02;  // the ECU's control cycle [s]

/// m·dv/dt = F_drive − m·g·sin θ − c_r·m·g·sign(v); F_drive lags the pedal by τ; a throttle
/// below the dead band gives no force; the brake only opposes motion.
struct Plant {
  double mass = 2600.0;
  double grade = 0.0;           ///< tan θ
  double lag = 0.3;             ///< τ [s]
  double dead_band = 0.15;      ///< throttle with no effect [-]
  double full_drive = 12000.0;  ///< [N] at throttle 1
  double full_brake = 25000.0;  ///< [N] at brake 1
  double force = 0.0, v = 0.0;

  void step(double pedal, double h) {
    const double throttle = std::max(0.0, pedal - dead_band) / (1.0 - dead_band);
    const double wanted = pedal > 0.0 ? full_drive * throttle : 0.0;
    force += (wanted - force) * h / lag;
    const double theta = std::atan(grade);
    double brake = pedal < 0.0 ? -pedal * full_brake : 0.0;
    const double rest = force - mass * kG * std::sin(theta) - 0.015 * mass * kG;
    if (v <= 0.0 && std::abs(rest) <= brake) {  // held by the brake
      v = 0.0;
      return;
    }
    if (v < 0.0) brake = -brake;
    v += (rest - brake) / mass * h;
  }
};

/// Drives `plant` at `speed` for `seconds`; the largest |v − speed| over the last 3 s.
double hold(Plant& plant, double speed, double seconds, double* last_pedal = nullptr) {
  SpeedController c({}, kCycle);
  double worst = 0.0;
  double ref = 0.0;
  const int cycles = static_cast<int>(seconds / kCycle);
  for (int k = 0; k < cycles; ++k) {
    const double t = k * kCycle;
    const double next = std::min(speed, ref + 2.0 * kCycle);  // a 2 m/s² ramp
    const double pedal = c.update(next, (next - ref) / kCycle, plant.v);
    ref = next;
    EXPECT_LE(std::abs(pedal), 1.0);
    if (last_pedal != nullptr) *last_pedal = pedal;
    for (int i = 0; i < 80; ++i) plant.step(pedal, kCycle / 80);  // the vehicle at 4 kHz
    if (t > seconds - 3.0) worst = std::max(worst, std::abs(plant.v - speed));
  }
  return worst;
}

TEST(SpeedController, HoldsTheReferenceWithNoOffsetOnEveryGrade) {
  for (const double grade : {0.0, 0.1, 0.2, 0.4}) {
    Plant p{.grade = grade};
    EXPECT_LT(hold(p, 5.0, 30.0), 0.01) << "grade " << grade;
  }
}

TEST(SpeedController, BrakesDownhill) {
  Plant p{.grade = -0.2};
  double pedal = 0.0;
  EXPECT_LT(hold(p, 3.0, 30.0, &pedal), 0.01);
  // m·g·(sin θ − c_r) = 2600·9.807·(0.196 − 0.015) N held by the brake at 25 kN per unit
  EXPECT_NEAR(-pedal, 2600.0 * kG * (std::sin(std::atan(0.2)) - 0.015) / 25000.0, 0.01);
}

TEST(SpeedController, HoldsAtWalkingPaceThroughTheDeadBand) {
  // 1 m/s on a 10 % grade: the pedal it needs sits just above the dead band
  Plant p{.grade = 0.1, .dead_band = 0.25};
  EXPECT_LT(hold(p, 1.0, 30.0), 0.01);
}

TEST(SpeedController, TheIntegralStopsAtThePedalsStop) {
  // A grade beyond the drive: the pedal stays at 1 and the integral does not wind up, so
  // it comes off the stop at once when the grade eases
  Plant p{.grade = 0.6, .full_drive = 12000.0};
  SpeedController c({}, kCycle);
  for (int k = 0; k < 500; ++k) {
    EXPECT_LE(c.update(5.0, 0.0, p.v), 1.0);
    p.step(1.0, kCycle);
  }
  const double over_speed = c.update(5.0, 0.0, 7.0);  // suddenly too fast
  EXPECT_LT(over_speed, 1.0);
}

}  // namespace
}  // namespace hil::ecu
