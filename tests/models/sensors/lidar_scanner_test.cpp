// The lidar scanner (models/sensors/lidar/lidar_scanner.hpp): the analytic checks on
// whole revolutions of the VLP-16 preset (rings on flat ground, a box's faces), its scan
// pattern against the manual's timing, and its noise and dropout from the seed.
#include "models/sensors/lidar/lidar_scanner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <vector>

#include "models/terrain/terrain_flat.hpp"

namespace hil::models::lidar {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

struct Point {
  Eigen::Vector3d world;
  double range;
  double elevation;
};

/// One revolution's returns (packets 0 … n), turned back into world points.
std::vector<Point> revolution(LidarScanner& scanner, const SensorPose& pose, const RayWorld& w) {
  std::vector<Point> points;
  PacketScan scan;
  for (std::int64_t p = 0;; ++p) {
    scanner.scan(p, pose, w, scan);
    if (scan.revolution[0] > 0) break;
    for (int j = 0; j < kReturnsPerPacket; ++j) {
      const int beams = scanner.preset().beams();
      const double t = scanner.pattern().fire_time(p, j / beams, j % beams);
      if (scan.distance[j] == 0 || scanner.pattern().revolution(t) > 0) continue;
      const double r = scan.distance[j] * kRangeUnit;
      const double el = scanner.elevation_deg(j) * kDeg;
      const double az = scan.azimuth_deg[j] * kDeg;
      const Eigen::Vector3d d(std::cos(el) * std::cos(az), -std::cos(el) * std::sin(az),
                              std::sin(el));
      points.push_back({pose.origin + pose.rotation * (r * d), r, scanner.elevation_deg(j)});
    }
  }
  return points;
}

TEST(LidarScanner, Vlp16ScanPatternIsTheManuals) {
  const LidarScanner s({.preset = PresetId::vlp16, .rotation_hz = 10}, 1);
  EXPECT_EQ(s.preset().beams(), 16);
  EXPECT_EQ(s.preset().firings_per_packet(), 24);
  // 12 blocks × 2 firings × 55.296 µs: 753.5 packets/s (the manual's ~754 at 600 rpm)
  EXPECT_NEAR(1.0 / s.preset().packet_period_s(), 753.5, 0.1);
  EXPECT_NEAR(s.pattern().azimuth_step_deg(), 0.199, 1e-3);
  EXPECT_NEAR(s.pattern().fire_time(2, 1, 15) - s.pattern().packet_start(2),
              55.296e-6 + 15 * 2.304e-6, 1e-12);
  const LidarScanner h({.preset = PresetId::hdl64, .rotation_hz = 10}, 1);
  EXPECT_EQ(h.preset().beams(), 64);
  EXPECT_DOUBLE_EQ(h.preset().elevation_deg.front(), 2.0);
  EXPECT_NEAR(h.pattern().azimuth_step_deg(), 0.17, 0.01);
}

TEST(LidarScanner, FlatGroundRingsAreAtHOverSinOfEachBeamWithin2mm) {
  const double h = 1.8;
  const FlatTerrain flat({});
  LidarScanner scanner({.preset = PresetId::vlp16, .rotation_hz = 10}, 7);
  const SensorPose pose{.origin = {3.0, -4.0, h}};
  const auto points = revolution(scanner, pose, {.terrain = &flat, .slope_bound = 0.01});
  std::map<double, int> per_ring;
  for (const Point& p : points) {
    ASSERT_LT(p.elevation, 0.0);  // only the downward beams see the ground
    EXPECT_NEAR(p.range, h / std::sin(-p.elevation * kDeg), kRangeUnit) << p.elevation;
    EXPECT_NEAR(p.world.z(), 0.0, kRangeUnit);
    ++per_ring[p.elevation];
  }
  // 7 downward rings within 100 m (−1° reaches 103 m): 0.1 s / 55.296 µs = 1808.4 firings each
  EXPECT_EQ(per_ring.size(), 7U);
  for (const auto& [el, n] : per_ring) EXPECT_NEAR(n, 1808.4, 1) << el;
}

TEST(LidarScanner, ABoxAtAKnownPoseIsHitOnlyOnItsFaces) {
  const FlatTerrain flat({});
  const std::array objects{WorldObject{
      .name = "box", .shape = ObjectShape::box, .length = 4.0, .width = 2.0, .height = 1.6}};
  const double yaw = 30 * kDeg;
  const std::array states{ObjectState{.x = 8.0, .y = 3.0, .z = 0.0, .yaw = yaw}};
  LidarScanner scanner({.preset = PresetId::vlp16, .rotation_hz = 10}, 7);
  // The sensor turned by 90° and pitched: the box's pose is what counts, not the sensor's
  const SensorPose pose =
      sensor_pose({0, 0, 1.0}, attitude(0.0, 0.05, 1.2), {.position = {0.5, 0, 0.8}});
  const auto points = revolution(
      scanner, pose, {.terrain = &flat, .slope_bound = 0.01, .objects = objects, .states = states});
  int on_box = 0;
  for (const Point& p : points) {
    const Eigen::Vector3d rel = p.world - Eigen::Vector3d(8.0, 3.0, 0.0);
    const Eigen::Vector3d l(std::cos(yaw) * rel.x() + std::sin(yaw) * rel.y(),
                            -std::sin(yaw) * rel.x() + std::cos(yaw) * rel.y(), rel.z());
    if (std::abs(p.world.z()) < kRangeUnit && (std::abs(l.x()) > 2 || std::abs(l.y()) > 1)) {
      continue;  // the ground, outside the box's footprint
    }
    // Inside the box's extent and on one of its faces (within the range unit)
    const double tol = kRangeUnit;
    ASSERT_LE(std::abs(l.x()), 2.0 + tol);
    ASSERT_LE(std::abs(l.y()), 1.0 + tol);
    ASSERT_LE(l.z(), 1.6 + tol);
    const bool on_face = std::abs(std::abs(l.x()) - 2.0) < tol ||
                         std::abs(std::abs(l.y()) - 1.0) < tol || std::abs(l.z() - 1.6) < tol;
    EXPECT_TRUE(on_face) << l.transpose();
    ++on_box;
  }
  EXPECT_GT(on_box, 100);
}

TEST(LidarScanner, NoiseAndDropoutComeFromTheSeed) {
  const FlatTerrain flat({});
  const SensorPose pose{.origin = {0, 0, 1.8}};
  const RayWorld w{.terrain = &flat, .slope_bound = 0.01};
  const LidarParams noisy{.range_noise_m = 0.05, .dropout = 0.25};
  LidarScanner a(noisy, 42), b(noisy, 42), c(noisy, 43), clean({}, 42);
  PacketScan sa, sb, sc, s0;
  int kept = 0, hits = 0, differ = 0;
  double sq = 0.0;
  for (std::int64_t p = 0; p < 200; ++p) {
    a.scan(p, pose, w, sa);
    b.scan(p, pose, w, sb);
    c.scan(p, pose, w, sc);
    clean.scan(p, pose, w, s0);
    ASSERT_EQ(sa.distance, sb.distance);  // same seed, same returns
    for (int j = 0; j < kReturnsPerPacket; ++j) {
      differ += sa.distance[j] != sc.distance[j] ? 1 : 0;
      if (s0.distance[j] == 0) continue;
      ++hits;
      if (sa.distance[j] == 0) continue;
      ++kept;
      const double e = (sa.distance[j] - s0.distance[j]) * kRangeUnit;
      sq += e * e;
    }
  }
  EXPECT_GT(differ, 1000);
  EXPECT_NEAR(static_cast<double>(kept) / hits, 0.75, 0.02);
  EXPECT_NEAR(std::sqrt(sq / kept), 0.05, 0.003);
}

}  // namespace
}  // namespace hil::models::lidar
