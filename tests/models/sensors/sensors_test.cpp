// Sensors: WGS-84 conversions, seeded noise, IMU, GNSS epochs, wheel encoder counts.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "models/sensors/geodetic.hpp"
#include "models/sensors/gnss.hpp"
#include "models/sensors/imu.hpp"
#include "models/sensors/sensor_noise.hpp"
#include "models/sensors/wheel_encoder.hpp"

namespace hil::models {
namespace {

TEST(Geodetic, KnownPointsAndRoundTrips) {
  // Equator, prime meridian: ECEF (a, 0, 0); north pole: (0, 0, b)
  EXPECT_NEAR(geodetic_to_ecef({}).x(), 6378137.0, 1e-9);
  EXPECT_NEAR(geodetic_to_ecef({.latitude_deg = 90.0}).z(), 6356752.314245, 1e-6);
  for (const double lat : {-89.9, -45.0, 0.0, 30.0, 49.4245, 89.9}) {
    const Geodetic g{.latitude_deg = lat, .longitude_deg = 7.75, .altitude_m = 1234.5};
    const Geodetic back = ecef_to_geodetic(geodetic_to_ecef(g));
    EXPECT_NEAR(back.latitude_deg, lat, 1e-12);
    EXPECT_NEAR(back.longitude_deg, 7.75, 1e-12);
    EXPECT_NEAR(back.altitude_m, 1234.5, 1e-6);
  }
}

TEST(Geodetic, EnuOffsetsMoveLatitudeAndLongitudeByTheEllipsoidRadii) {
  const Geodetic origin{.latitude_deg = 49.4245, .longitude_deg = 7.7526, .altitude_m = 240.0};
  const EnuOrigin enu(origin);
  const Geodetic here = enu.to_geodetic(Eigen::Vector3d::Zero());
  EXPECT_NEAR(here.latitude_deg, origin.latitude_deg, 1e-12);
  EXPECT_NEAR(here.altitude_m, 240.0, 1e-6);
  // 1 km north: Δφ = 1000 / M, M the meridian radius of curvature at 49.42° (6.3717e6 m)
  const double lat = origin.latitude_deg * std::numbers::pi / 180.0;
  const double e2 = 6.69437999014e-3;
  const double M = 6378137.0 * (1 - e2) / std::pow(1 - e2 * std::sin(lat) * std::sin(lat), 1.5);
  const Geodetic north = enu.to_geodetic({0.0, 1000.0, 0.0});
  EXPECT_NEAR((north.latitude_deg - origin.latitude_deg) * std::numbers::pi / 180.0 * M, 1000.0,
              0.05);  // the tangent plane curves away: 0.08 m of height, < 5 cm along
  // Round trip anywhere within 50 km
  const Eigen::Vector3d p(-31'234.5, 45'678.25, 12.0);
  EXPECT_LT((enu.to_enu(enu.to_geodetic(p)) - p).norm(), 1e-6);
}

TEST(SensorNoise, SeededDeterministicAndNormal) {
  GaussianNoise a(derive_seed(42, "imu"));
  GaussianNoise b(derive_seed(42, "imu"));
  GaussianNoise c(derive_seed(42, "gnss"));
  double sum = 0, sum2 = 0;
  int differs = 0;
  constexpr int kN = 200'000;
  for (int i = 0; i < kN; ++i) {
    const double x = a(2.0);
    EXPECT_EQ(x, b(2.0));
    if (x != c(2.0)) ++differs;
    sum += x;
    sum2 += x * x;
  }
  EXPECT_EQ(differs, kN);
  EXPECT_NEAR(sum / kN, 0.0, 0.02);              // σ/√N = 0.0045
  EXPECT_NEAR(std::sqrt(sum2 / kN), 2.0, 0.02);  // σ = 2
  EXPECT_EQ(a(0.0), 0.0);                        // off means exactly off
  EXPECT_NE(derive_seed(1, "imu"), derive_seed(2, "imu"));
}

TEST(SensorNoise, IsBoxMullerOfTheEngineInOrderWithinAFewUlpOfLibm) {
  // The deviates are drawn four pairs at a time with vector kernels (≤ 4 ulp): the same
  // sequence as one pair at a time with the scalar libm — radius uniform, angle uniform,
  // then the cos deviate before the sin one — to a few ulp, across several batches
  const std::uint64_t seed = derive_seed(7, "imu");
  GaussianNoise noise(seed);
  std::mt19937_64 engine(seed);
  const auto uniform = [&] { return (static_cast<double>(engine() >> 11U) + 1.0) * 0x1.0p-53; };
  for (int pair = 0; pair < 50; ++pair) {
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double angle = 2.0 * std::numbers::pi * uniform();
    for (const double expected : {radius * std::cos(angle), radius * std::sin(angle)}) {
      const double got = noise.standard();
      EXPECT_NEAR(got, expected, 1e-14 * std::max(1.0, std::abs(expected))) << "pair " << pair;
    }
  }
}

TEST(Imu, LevelAtRestReadsPlusGAndTheLeverArmAddsCentripetalAcceleration) {
  Imu level({}, 1);
  const ImuSample s = level.measure({.gravity_body = {0.0, 0.0, -9.81}}, 250e-6);
  EXPECT_EQ(s.specific_force, Eigen::Vector3d(0.0, 0.0, 9.81));  // noise off: exact
  EXPECT_EQ(s.angular_rate, Eigen::Vector3d::Zero());
  // 1 m ahead of the CG, yawing at 2 rad/s: −ω²·r = −4 m/s² along x
  Imu ahead({.position = {1.0, 0.0, 0.0}}, 1);
  const ImuSample t = ahead.measure({.angular_velocity = {0.0, 0.0, 2.0}}, 250e-6);
  EXPECT_NEAR(t.specific_force.x(), -4.0, 1e-12);
  EXPECT_NEAR(t.angular_rate.z(), 2.0, 1e-15);
}

TEST(Imu, BiasAndNoiseHaveTheirConfiguredSize) {
  Imu imu({.accel_bias = {0.1, 0.0, 0.0}, .accel_noise = 0.05}, 3);
  double sum = 0, sum2 = 0;
  constexpr int kN = 100'000;
  for (int i = 0; i < kN; ++i) {
    const double f = imu.measure({}, 250e-6).specific_force.x();
    sum += f;
    sum2 += f * f;
  }
  const double mean = sum / kN;
  EXPECT_NEAR(mean, 0.1, 1e-3);
  EXPECT_NEAR(std::sqrt(sum2 / kN - mean * mean), 0.05, 1e-3);
}

TEST(Gnss, FixesAtItsRateAndHoldsInBetween) {
  Gnss gnss({.rate_hz = 10.0}, 1);
  int fixes = 0;
  std::int64_t last = 0;
  for (int k = 0; k <= 4000; ++k) {  // 1 s at 250 µs, t = 0 … 1 inclusive
    const GnssFix& f = gnss.update(k * 250e-6, {10.0 * k * 250e-6, 0.0, 0.0}, {10.0, 0.0, 0.0});
    if (f.count != last) {
      ++fixes;
      EXPECT_EQ(k % 400, 0) << "a fix between epochs";
      last = f.count;
    }
  }
  EXPECT_EQ(fixes, 11);  // t = 0, 0.1, …, 1.0
  EXPECT_EQ(gnss.fix().velocity_enu.x(), 10.0);
  EXPECT_GT(gnss.fix().position.longitude_deg, gnss.params().origin.longitude_deg);  // 10 m east
}

TEST(WheelEncoder, CountsFloorTheAngleAtTheResolution) {
  const WheelEncoderParams p{.counts_per_revolution = 1000.0};
  EXPECT_EQ(encoder_counts(p, 0.0), 0);
  EXPECT_EQ(encoder_counts(p, 2.0 * std::numbers::pi), 1000);
  EXPECT_EQ(encoder_counts(p, 2.0 * std::numbers::pi * 0.0015), 1);
  EXPECT_EQ(encoder_counts(p, -2.0 * std::numbers::pi * 0.0005), -1);  // backwards counts down
  EXPECT_EQ(encoder_counts(p, 2.0 * std::numbers::pi * 12.3456), 12345);
}

}  // namespace
}  // namespace hil::models
