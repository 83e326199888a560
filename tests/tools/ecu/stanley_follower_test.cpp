// The Stanley steering of a front-steered vehicle (tools/ecu/stanley_follower.hpp) on a
// kinematic single-track vehicle (rear axle at (x, y), heading ψ: dx/dt = v·cos ψ,
// dy/dt = v·sin ψ, dψ/dt = v·tan δ / L): from an offset it converges onto a straight path at
// any speed, and on a circle the tracked point (the CG, d ahead of the rear axle) settles on
// the path with the front axle κ·(L² − d²)/2 outside it. The kinematic vehicle has no tire
// lag, so its yaw rate answers the steering at once: the yaw damping (there for the tires'
// lag) is off in these (k_yaw = 0) and checked on the formula.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "runtime/scenario/course_path.hpp"
#include "tools/ecu/stanley_follower.hpp"

namespace hil::ecu {
namespace {

constexpr double kL = 3.378;   // HMMWV wheelbase [m]
constexpr double kD = 1.6;     // the tracked point, ahead of the rear axle [m]
constexpr double kDt = 0.001;  // [s]

struct Pose {
  double x = 0.0, y = 0.0, heading = 0.0;
};

/// Drives the kinematic vehicle at `v` along `path` for `seconds`, steering every 20 ms;
/// returns the final pose of the rear axle.
Pose drive(const runtime::CoursePath& path, Pose rear, double v, double seconds,
           const StanleyFollower& stanley) {
  std::size_t hint = 0;
  double delta = 0.0;
  const int steps = static_cast<int>(seconds / kDt);
  for (int k = 0; k < steps; ++k) {
    if (k % 20 == 0) {
      const double fx = rear.x + kL * std::cos(rear.heading);
      const double fy = rear.y + kL * std::sin(rear.heading);
      const runtime::PathSample at = path.project(fx, fy, hint);
      delta = stanley.update(at, rear.heading, v, v * std::tan(delta) / kL);
    }
    rear.x += v * std::cos(rear.heading) * kDt;
    rear.y += v * std::sin(rear.heading) * kDt;
    rear.heading += v * std::tan(delta) / kL * kDt;
  }
  return rear;
}

TEST(StanleyFollower, ConvergesOnAStraightPathFromAnOffsetAtAnySpeed) {
  const runtime::CoursePath straight({{.x = -10, .y = 0}, {.x = 2000, .y = 0}});
  const StanleyFollower stanley({.k_yaw = 0.0, .k_ag = 0.0}, kL, 0.5, kD);
  for (const double v : {1.0, 5.0, 16.7}) {
    // 1 m to the left: e decays at about k·v/(k_soft + v) per second once small
    const Pose end = drive(straight, {.x = 0.0, .y = 1.0}, v, 20.0, stanley);
    EXPECT_LT(std::abs(end.y), 0.01) << v << " m/s";
    EXPECT_LT(std::abs(end.heading), 0.01) << v << " m/s";
  }
}

TEST(StanleyFollower, OnACircleTheTrackedPointStaysOnThePath) {
  const double radius = 30.0;
  std::vector<config::CoursePoint> points;
  for (int i = 0; i <= 2000; ++i) {  // counter-clockwise, centre (0, R), from the origin
    const double a = -std::numbers::pi / 2 + i * 0.0025;
    points.push_back({.x = radius * std::cos(a), .y = radius + radius * std::sin(a)});
  }
  const runtime::CoursePath circle(points);
  const StanleyFollower stanley({.k_yaw = 0.0, .k_ag = 0.0}, kL, 0.5, kD);
  const Pose rear = drive(circle, {.x = -kD, .y = 0.0}, 3.0, 40.0, stanley);
  const double cx = rear.x + kD * std::cos(rear.heading);
  const double cy = rear.y + kD * std::sin(rear.heading);
  EXPECT_NEAR(std::hypot(cx, cy - radius), radius, 0.02);  // the tracked point on the circle
  const double fx = rear.x + kL * std::cos(rear.heading);
  const double fy = rear.y + kL * std::sin(rear.heading);
  // …and the front axle outside it by ≈ (L² − d²)/(2R)
  EXPECT_NEAR(std::hypot(fx, fy - radius) - radius, (kL * kL - kD * kD) / (2.0 * radius), 0.02);
}

TEST(StanleyFollower, DampsTheYawRateAndSteersForTheTiresSlip) {
  const StanleyFollower stanley({}, kL, 0.5, 0.0);
  const double kappa = 0.02;
  const runtime::PathSample on_line{
      .s = 5.0, .cross_track = -0.5 * kL * kL * kappa, .heading = 0.3, .curvature = kappa};
  // On the offset line, along the path, turning at v·κ: the steady-state yaw alone,
  // k_ag·v²·κ = 0.015·100·0.02
  EXPECT_NEAR(stanley.update(on_line, 0.3, 10.0, 10.0 * kappa), 0.015 * 100.0 * kappa, 1e-12);
  // Turning faster than the path: the damping steers out by k_yaw·Δr
  EXPECT_NEAR(stanley.update(on_line, 0.3, 10.0, 10.0 * kappa + 0.1),
              0.015 * 100.0 * kappa - 0.6 * 0.1, 1e-12);
  // Heading 0.1 rad right of the path: 0.1 rad more to the left
  EXPECT_NEAR(stanley.update(on_line, 0.2, 10.0, 10.0 * kappa), 0.015 * 100.0 * kappa + 0.1, 1e-12);
  const runtime::PathSample far_left{.cross_track = 50.0};
  EXPECT_DOUBLE_EQ(stanley.update(far_left, 0.0, 1.0, 0.0), -0.5);  // the steering's limit
}

}  // namespace
}  // namespace hil::ecu
