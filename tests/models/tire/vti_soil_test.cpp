// Sand (ruling 6) and clay (ruling 7): plausible, continuous and finite everywhere.

#include "models/tire/vti_soil.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace hil::models {
namespace {

const SoilTire kTire{.b = 0.318, .d = 0.94, .h = 0.20, .delta = 0.015};

/// Dense sweep over s ∈ [−1.5, 1.5] (beyond ±1 clamps): finite, non-decreasing, and
/// continuous: no step exceeds the steepest slope (at s = 0, the curve being odd and concave
/// for s > 0) times the grid step.
void expect_well_behaved(const SoilContact& c, const char* what) {
  constexpr double kStep = 1e-4;
  constexpr double kTiny = 1e-200;
  const double max_slope = soil_gross_traction(c, kTiny) / kTiny;
  ASSERT_TRUE(std::isfinite(max_slope)) << what;
  double previous = soil_net_traction(c, -1.5);
  for (int i = -15'000; i <= 15'000; ++i) {
    const double s = kStep * i;
    const double F = soil_net_traction(c, s);
    ASSERT_TRUE(std::isfinite(F)) << what << " s=" << s;
    ASSERT_GE(F, -1.0);
    ASSERT_LE(F, 1.0);
    ASSERT_GE(F, previous - 1e-12) << what << " s=" << s;  // increases with slip
    ASSERT_LE(F - previous, max_slope * kStep * (1 + 1e-9) + 1e-12) << what << " jump at s=" << s;
    previous = F;
  }
  EXPECT_DOUBLE_EQ(soil_net_traction(c, 0.0), std::max(-c.resistance, -1.0)) << what;  // −R
  EXPECT_NEAR(soil_net_traction(c, 1e-15), soil_net_traction(c, 0.0), 1e-3) << what;
  EXPECT_DOUBLE_EQ(soil_gross_traction(c, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(soil_gross_traction(c, -0.3), -soil_gross_traction(c, 0.3));
}

TEST(Sand, MobilityNumberHasConsistentUnits) {
  // CI 600 kPa → G = 600e3 / (3.47·0.0254 m) = 6.807 MPa/m; (b·d)^1.5 = 0.29892^1.5 = 0.16343;
  // δ/h = 0.075; N = 5000 N → N_s = 6.807e6·0.16343·0.075/5000 = 16.69.
  EXPECT_NEAR(sand_contact(kTire, 600e3, 5000.0).mobility, 16.69, 0.02);
}

TEST(Sand, NetTractionIsPlausibleForTypicalSandsAndLoads) {
  for (const double ci : {200e3, 600e3, 1500e3}) {
    for (const double N : {1000.0, 5000.0, 15000.0}) {
      const SoilContact c = sand_contact(kTire, ci, N);
      const double at0 = soil_net_traction(c, 0.0);
      EXPECT_LT(at0, 0.0);   // motion resistance at zero slip
      EXPECT_GT(at0, -0.3);  // ruling 6: within [−0.3, 0.7]
      EXPECT_LT(soil_net_traction(c, 1.0), 0.7);
      EXPECT_GT(soil_net_traction(c, 1.0), 0.2);  // a driven wheel gets somewhere on sand
      EXPECT_GT(soil_net_traction(c, 0.2), soil_net_traction(c, 0.05));
    }
  }
  // Firmer sand, lighter load: more traction and less resistance.
  EXPECT_GT(soil_net_traction(sand_contact(kTire, 1500e3, 1000.0), 0.2),
            soil_net_traction(sand_contact(kTire, 200e3, 15000.0), 0.2));
  EXPECT_LT(sand_contact(kTire, 1500e3, 1000.0).resistance,
            sand_contact(kTire, 200e3, 15000.0).resistance);
}

TEST(Sand, FiniteAndContinuousFromTinyToHugeLoads) {
  for (const double N : {1e-6, 1.0, 5000.0, 1e6, 1e9}) {
    expect_well_behaved(sand_contact(kTire, 600e3, N), "sand");
  }
  expect_well_behaved(sand_contact({.b = 0.3, .d = 0.9, .h = 0.2, .delta = 0.0}, 600e3, 4e3),
                      "sand, no deflection");
}

TEST(Clay, PublishedLawAboveTheTangentPoint) {
  // CI 500 kPa, N = 5000 N: N_c = 5e5·0.318·0.94 / (5000·(1 − 0.075)^1.5·(1.33830)^0.75)
  //                             = 149460 / (5000·0.88963·1.24454) = 27.00.
  const SoilContact c = clay_contact(kTire, 500e3, 5000.0);
  EXPECT_NEAR(c.mobility, 27.00, 0.02);
  const double S_sp = 21.0 / std::pow(c.mobility, 2.5);
  const double R = 12.0 / (c.mobility * c.mobility) + 0.007;
  const double factor = std::pow(1.0 + 0.318 / 0.94, 0.25);
  for (const double s : {0.05, 0.1, 0.3}) {
    EXPECT_NEAR(soil_net_traction(c, s), 0.5 * std::log10(s / S_sp) * factor - R, 1e-12);
  }
  EXPECT_EQ(soil_net_traction(c, 1.0), 1.0);  // the law exceeds 1 here: clamped
}

TEST(Clay, ZeroAndNegativeSlipAreFiniteAndZeroSlipIsMinusR) {
  const SoilContact c = clay_contact(kTire, 500e3, 5000.0);
  EXPECT_DOUBLE_EQ(soil_net_traction(c, 0.0), -c.resistance);  // not MAVS's full braking
  EXPECT_LT(soil_net_traction(c, -0.5), -c.resistance);        // braking slip brakes
  for (const double ci : {100e3, 500e3, 2000e3}) {
    for (const double N : {1e-6, 1.0, 5000.0, 1e6, 1e9}) {
      expect_well_behaved(clay_contact(kTire, ci, N), "clay");
    }
  }
}

TEST(Clay, SoftClayUnderAHeavyLoadCannotMove) {
  const SoilContact c = clay_contact(kTire, 100e3, 15000.0);
  EXPECT_LT(soil_net_traction(c, 1.0), 0.0);
}

}  // namespace
}  // namespace hil::models
