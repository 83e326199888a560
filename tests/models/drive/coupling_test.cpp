// The two couplings between engine and gearbox: the torque converter
// (models/drive/torque_converter.hpp, Chrono's capacity-factor form) and the spring–damper–slider
// clutch (models/drive/compliant_coupling.hpp).

#include "models/drive/compliant_coupling.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "models/drive/powertrain_params.hpp"
#include "models/drive/torque_converter.hpp"

namespace hil::models {
namespace {

TEST(TorqueConverter, StallTorqueFromTheCapacityFactor) {
  const TorqueConverterParams tc = hmmwv_powertrain().torque_converter;
  const TorqueConverterTorques t = torque_converter(tc, 200.0, 0.0);
  EXPECT_DOUBLE_EQ(t.speed_ratio, 0.0);
  EXPECT_NEAR(t.pump, std::pow(200.0 / 15.0, 2), 1e-9);  // K(0) = 15
  EXPECT_NEAR(t.turbine, 2.0 * t.pump, 1e-9);            // TR(0) = 2
}

TEST(TorqueConverter, MidRangeInterpolatesBothMaps) {
  const TorqueConverterParams tc = hmmwv_powertrain().torque_converter;
  const TorqueConverterTorques t = torque_converter(tc, 200.0, 0.6 * 200.0);
  const double K = 15.0 + (0.6 - 0.5) / 0.25 * 1.0;    // 15 → 16 over 0.5 … 0.75
  const double TR = 1.5 + (0.6 - 0.5) / 0.25 * -0.35;  // 1.5 → 1.15
  EXPECT_NEAR(t.pump, std::pow(200.0 / K, 2), 1e-9);
  EXPECT_NEAR(t.turbine, TR * t.pump, 1e-9);
}

TEST(TorqueConverter, ReverseFlowDrivesTheEngine) {
  const TorqueConverterParams tc = hmmwv_powertrain().torque_converter;
  const TorqueConverterTorques t = torque_converter(tc, 100.0, 130.0);  // SR = 1.3
  EXPECT_NEAR(t.pump, -std::pow(100.0 / tc.capacity_factor(0.7), 2), 1e-9);
  EXPECT_DOUBLE_EQ(t.turbine, t.pump);
}

TEST(TorqueConverter, TorqueCrossesZeroContinuouslyAtTheCouplingPoint) {
  const TorqueConverterParams tc = hmmwv_powertrain().torque_converter;
  const double wp = 200.0;
  const double band = tc.coupling_band;
  EXPECT_NEAR(torque_converter(tc, wp, wp).pump, 0.0, 1e-9);
  // Continuous at both edges of the blend, and monotonic through it
  const double below = torque_converter(tc, wp, (1.0 - band) * wp - 1e-9).pump;
  EXPECT_NEAR(torque_converter(tc, wp, (1.0 - band) * wp + 1e-9).pump, below, 1e-5);
  const double above = torque_converter(tc, wp, (1.0 + band) * wp + 1e-9).pump;
  EXPECT_NEAR(torque_converter(tc, wp, (1.0 + band) * wp - 1e-9).pump, above, 1e-5);
  double last = below;
  for (int step = 0; step <= 20; ++step) {
    const double sr = 1.0 - band + band / 10.0 * step;
    const double t = torque_converter(tc, wp, sr * wp).pump;
    EXPECT_LE(t, last + 1e-12) << sr;
    last = t;
  }
}

TEST(TorqueConverter, BackwardsEngineTransmitsNothing) {
  const TorqueConverterParams tc = hmmwv_powertrain().torque_converter;
  const TorqueConverterTorques t = torque_converter(tc, -10.0, 5.0);
  EXPECT_EQ(t.pump, 0.0);
  EXPECT_EQ(t.turbine, 0.0);
}

TEST(CompliantCoupling, StuckIsASpringDamper) {
  const CompliantCouplingParams p{.stiffness = 1000.0, .damping = 10.0};
  const CouplingTorque c = compliant_coupling(p, 0.01, 2.0, 100.0);
  EXPECT_DOUBLE_EQ(c.torque, 1000.0 * 0.01 + 10.0 * 2.0);
  EXPECT_DOUBLE_EQ(c.twist_rate, 2.0);
}

TEST(CompliantCoupling, SlipsAtItsCapacity) {
  const CompliantCouplingParams p{.stiffness = 1000.0, .damping = 10.0};
  const CouplingTorque c = compliant_coupling(p, 0.05, 20.0, 100.0);  // would carry 250 N·m
  EXPECT_DOUBLE_EQ(c.torque, 100.0);
  EXPECT_DOUBLE_EQ(c.twist_rate, (100.0 - 50.0) / 10.0);
  EXPECT_DOUBLE_EQ(compliant_coupling(p, 0.0, -50.0, 100.0).torque, -100.0);
}

TEST(CompliantCoupling, OpenClutchRelaxesItsSpring) {
  const CompliantCouplingParams p{.stiffness = 1000.0, .damping = 10.0};
  const CouplingTorque c = compliant_coupling(p, 0.02, 123.0, 0.0);
  EXPECT_DOUBLE_EQ(c.torque, 0.0);
  EXPECT_DOUBLE_EQ(c.twist_rate, -1000.0 * 0.02 / 10.0);  // time constant c/k
}

}  // namespace
}  // namespace hil::models
