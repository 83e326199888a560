// Gear selection (models/drive/transmission.hpp): AutoSim's sequential manual levers, the R/N/D
// selector of the automatic, rpm-threshold shifting with a latency.

#include "models/drive/transmission.hpp"

#include <gtest/gtest.h>

namespace hil::models {
namespace {

constexpr double kDt = 0.01;

TransmissionParams manual() {
  TransmissionParams p;
  p.mode = ShiftMode::manual;
  return p;
}

/// One lever press (down for one tick, then released).
void press(const TransmissionParams& p, TransmissionState& s, bool up) {
  transmission_update(p, s, up, !up, 0.0, kDt);
  transmission_update(p, s, false, false, 0.0, kDt);
}

TEST(Transmission, StartsInNeutralManualAndFirstAutomatic) {
  EXPECT_EQ(transmission_initial_state(manual()).gear, 0);
  EXPECT_EQ(transmission_initial_state(TransmissionParams{}).gear, 1);
}

TEST(Transmission, ManualLeversStepThroughAdjacentGears) {
  const TransmissionParams p = manual();
  TransmissionState s = transmission_initial_state(p);
  for (int expected = 1; expected <= 5; ++expected) {
    press(p, s, true);
    EXPECT_EQ(s.gear, expected);
  }
  press(p, s, true);
  EXPECT_EQ(s.gear, 5);  // top gear: stays
  for (int expected = 4; expected >= -1; --expected) {
    press(p, s, false);
    EXPECT_EQ(s.gear, expected);
  }
  press(p, s, false);
  EXPECT_EQ(s.gear, -1);  // reverse is the end of the sequence
}

TEST(Transmission, AHeldLeverShiftsOnce) {
  const TransmissionParams p = manual();
  TransmissionState s = transmission_initial_state(p);
  for (int k = 0; k < 100; ++k) transmission_update(p, s, true, false, 0.0, kDt);
  EXPECT_EQ(s.gear, 1);
}

TEST(Transmission, GearRatiosAreSignedReductions) {
  const TransmissionParams p = manual();
  EXPECT_DOUBLE_EQ(gear_ratio(p, 1), 3.6);
  EXPECT_DOUBLE_EQ(gear_ratio(p, 5), 0.8);
  EXPECT_DOUBLE_EQ(gear_ratio(p, 0), 0.0);
  EXPECT_DOUBLE_EQ(gear_ratio(p, -1), -3.5);
  EXPECT_DOUBLE_EQ(gear_ratio(p, 6), 0.0);
}

TEST(Transmission, AutomaticShiftsOnThresholdsAtMostOncePerLatency) {
  const TransmissionParams p;  // up 418.9 rad/s, down 157.1 rad/s, latency 0.5 s
  TransmissionState s = transmission_initial_state(p);
  transmission_update(p, s, false, false, 450.0, kDt);
  EXPECT_EQ(s.gear, 2);
  for (int k = 0; k < 40; ++k) transmission_update(p, s, false, false, 450.0, kDt);
  EXPECT_EQ(s.gear, 2);  // 0.41 s: still within the latency
  for (int k = 0; k < 11; ++k) transmission_update(p, s, false, false, 450.0, kDt);
  EXPECT_EQ(s.gear, 3);  // 0.51 s
  for (int k = 0; k < 100; ++k) transmission_update(p, s, false, false, 300.0, kDt);
  EXPECT_EQ(s.gear, 3);  // between the thresholds: stays
  for (int k = 0; k < 30; ++k) transmission_update(p, s, false, false, 100.0, kDt);
  EXPECT_EQ(s.gear, 2);  // one down-shift, the next waits for the latency
}

TEST(Transmission, AutomaticSelectorIsReverseNeutralDrive) {
  const TransmissionParams p;
  TransmissionState s = transmission_initial_state(p);
  s.gear = 3;
  press(p, s, false);
  EXPECT_EQ(s.gear, 0);  // D → N from any forward gear
  press(p, s, false);
  EXPECT_EQ(s.gear, -1);
  press(p, s, true);
  press(p, s, true);
  EXPECT_EQ(s.gear, 1);  // N → D engages first
  press(p, s, true);
  EXPECT_EQ(s.gear, 1);  // in D the up lever does nothing
}

TEST(Transmission, ShiftEngagementRampsOverTheShiftTime) {
  const TransmissionParams p = manual();  // shift_time 0.3 s
  TransmissionState s = transmission_initial_state(p);
  press(p, s, true);  // the release tick adds one dt
  EXPECT_NEAR(shift_engagement(p, s), kDt / 0.3, 1e-12);
  for (int k = 0; k < 40; ++k) transmission_update(p, s, false, false, 0.0, kDt);
  EXPECT_DOUBLE_EQ(shift_engagement(p, s), 1.0);
}

}  // namespace
}  // namespace hil::models
