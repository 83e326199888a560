// The virtual ECU's controller pieces against analytic values: the turn kinematics (each
// wheel's speed and angle from the instantaneous centre, RAVON §3.3), the path geometry,
// the PID path follower (AutoSim §6.2.3) converging on an offset straight path and
// removing a constant disturbance, and the speed plan's profiles.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "models/steering/steering.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_presets.hpp"
#include "runtime/scenario/course_path.hpp"
#include "tools/ecu/path_follower.hpp"
#include "tools/ecu/speed_plan.hpp"
#include "tools/ecu/vehicle_geometry.hpp"

namespace hil::ecu {
namespace {

TEST(VehicleGeometry, RavonTurnsAboutItsCentreLine) {
  const models::VehicleParams p = models::ravon_params();
  const VehicleGeometry g(p);
  EXPECT_DOUBLE_EQ(g.reference_x(), 0.0);  // 4WS with b = L/2 on both axles
  // Static load per wheel: (590/4 + 40) kg · g over 150 kN/m on a 0.635 m tire
  EXPECT_NEAR(g.rolling_radius(0), 0.3175 - (147.5 + 40.0) * 9.80665 / 150'000.0, 1e-9);
  const double kappa = 0.2;  // R = 5 m to the left of the CG
  const double v = 1.0;
  for (std::size_t w = 0; w < 4; ++w) {
    const double x = w < 2 ? 0.603 : -0.603;
    const double y = w % 2 == 0 ? 0.578 : -0.578;
    // |v_w| = ω·|c − p_w| with ω = v·κ, c = (0, 1/κ)
    const double expected = v * kappa * std::hypot(x, 1.0 / kappa - y) / g.rolling_radius(w);
    EXPECT_NEAR(g.wheel_speed(w, v, kappa), expected, 1e-12) << "wheel " << w;
  }
  EXPECT_NEAR(g.wheel_speed(0, v, 0.0), v / g.rolling_radius(0), 1e-15);  // straight: v/r
  EXPECT_GT(g.wheel_speed(1, v, kappa), g.wheel_speed(0, v, kappa));      // outer is faster
}

TEST(VehicleGeometry, SteeringAnglesPointEveryWheelAtTheSameCentre) {
  // The model's Ackermann map (models/steering/steering.hpp) fed the ECU's central angles: each
  // wheel's axis goes through the centre the wheel speeds assume
  for (const models::VehicleParams& p : {models::ravon_params(), models::hmmwv_params()}) {
    const VehicleGeometry g(p);
    for (const double share : {0.1, 0.6, -0.95}) {  // of the steering's reach
      const double kappa = share * g.max_curvature();
      for (std::size_t a = 0; a < 2; ++a) {
        const models::AxleSteeringParams& s = p.axles[a].steering;
        if (!s.steered) continue;
        models::AckermannParams ack = s.ackermann;
        ack.track = p.axles[a].track;
        const double d = g.central_angle(a, kappa);
        const double dmax = models::max_central_angle(ack);
        models::WheelAngles t = s.behind_turning_centre ? models::ackermann_tangents(ack, -d, dmax)
                                                        : models::ackermann_tangents(ack, d, dmax);
        if (s.behind_turning_centre) t = {.left = -t.left, .right = -t.right};
        for (const bool right : {false, true}) {
          const double y = (right ? -0.5 : 0.5) * p.axles[a].track;
          // A wheel at (x, y) rolls perpendicular to c − p: tan δ = (x − x_c)/(1/κ − y)
          const double expected = (p.axles[a].x - g.reference_x()) / (1.0 / kappa - y);
          EXPECT_NEAR(right ? t.right : t.left, expected, 1e-12)
              << "axle " << a << " right " << right << " kappa " << kappa;
        }
      }
    }
  }
  const VehicleGeometry hmmwv(models::hmmwv_params());
  EXPECT_DOUBLE_EQ(hmmwv.reference_x(), -1.745);  // front steering, b = L: the rear axle
}

TEST(VehicleGeometry, RavonFollowsTheReferencesOnACircle) {
  // The model driven open loop with the ECU's references for R = 5 m at 1 m/s: the yaw rate
  // is v·κ and the CG speed v, as the kinematics promise (slip makes the small difference)
  const models::VehicleParams p = models::ravon_params();
  const VehicleGeometry g(p);
  const models::FlatTerrain flat({});
  models::Vehicle vehicle(p, flat);
  vehicle.reset(0.0, 0.0, 0.0, 0.0);
  models::VehicleInputs in;
  const double kappa = 0.2;
  for (std::size_t w = 0; w < 4; ++w) in.speed_ref[w] = g.wheel_speed(w, 1.0, kappa);
  in.steering_command[0] = g.central_angle(0, kappa);
  in.steering_command[1] = g.central_angle(1, kappa);
  for (int k = 0; k < 12 * 4000; ++k) vehicle.step(in);
  const models::VehicleOutputs& o = vehicle.outputs();
  EXPECT_NEAR(o.velocity_body.norm(), 1.0, 0.03);
  EXPECT_NEAR(o.angular_velocity.z(), 1.0 * kappa, 0.03 * kappa);
}

TEST(CoursePath, ProjectsOntoSegmentsAndKnowsACirclesCurvature) {
  const runtime::CoursePath line({{.x = 0, .y = 0}, {.x = 10, .y = 0}});
  std::size_t hint = 0;
  const runtime::PathSample a = line.project(3.0, 0.5, hint);
  EXPECT_DOUBLE_EQ(a.s, 3.0);
  EXPECT_DOUBLE_EQ(a.cross_track, 0.5);  // left of the path: positive
  const runtime::PathSample beyond = line.project(12.0, -1.0, hint);
  EXPECT_DOUBLE_EQ(beyond.s, 12.0);  // the last segment extends
  EXPECT_DOUBLE_EQ(beyond.cross_track, -1.0);

  std::vector<config::CoursePoint> arc;  // R = 20 m, counter-clockwise, 0.25 m apart
  for (int i = 0; i <= 200; ++i) {
    const double phi = i * 0.25 / 20.0;
    arc.push_back({.x = 20.0 * std::sin(phi), .y = 20.0 - 20.0 * std::cos(phi)});
  }
  const runtime::CoursePath circle(arc);
  hint = 0;
  const double phi = 1.0;  // a point 0.3 m outside the arc at 1 rad
  const runtime::PathSample on =
      circle.project_global(20.3 * std::sin(phi), 20.0 - 20.3 * std::cos(phi), hint);
  EXPECT_NEAR(on.curvature, 1.0 / 20.0, 1e-5);
  EXPECT_NEAR(on.heading, phi, 1e-4);
  EXPECT_NEAR(on.cross_track, -0.3, 1e-4);  // outside a left turn is to the right
  EXPECT_NEAR(on.s, 20.0 * phi, 1e-3);
}

/// A kinematic vehicle on the path follower: heading rate v·κ, the curvature reaching the
/// command through a first-order lag (the steering servo) plus a constant disturbance.
struct Trace {
  double final_error = 0.0, overshoot = 0.0;
};
Trace drive(PathFollower& follower, double e0, double disturbance, double distance) {
  const runtime::CoursePath line({{.x = 0, .y = 0}, {.x = 1000, .y = 0}});
  double x = 0.0;
  double y = e0;
  double psi = 0.0;
  double kappa = 0.0;
  std::size_t hint = 0;
  const double v = 2.0;
  const double dt = 0.02;  // the ECU's cycle
  const double tau = 0.1;  // servo lag [s]
  double last_s = 0.0;
  Trace t;
  while (x < distance) {
    const runtime::PathSample at = line.project(x, y, hint);
    const double command = follower.update(at, psi, at.s - last_s);
    last_s = at.s;
    kappa += (command - kappa) * dt / tau;
    psi += v * (kappa + disturbance) * dt;
    x += v * std::cos(psi) * dt;
    y += v * std::sin(psi) * dt;
    if (y * e0 < 0.0) t.overshoot = std::max(t.overshoot, std::abs(y));
  }
  t.final_error = y;
  return t;
}

TEST(PathFollower, ConvergesOnAStraightPathFromAnOffset) {
  const PathFollowerGains gains = PathFollowerGains::for_distance(2.4);  // RAVON: 2 wheelbases
  PathFollower follower(gains, 0.9);
  const Trace t = drive(follower, 1.0, 0.0, 30.0);
  EXPECT_LT(std::abs(t.final_error), 0.001);  // 1 m → under 1 mm within 30 m (12.5 L)
  EXPECT_LT(t.overshoot, 0.05);               // the servo's lag: 2.5 cm past the line
  // Without integral separation the integral remembers the way in: 10 times the overshoot
  PathFollowerGains always = gains;
  always.integral_band = 0.0;
  PathFollower remembering(always, 0.9);
  EXPECT_GT(drive(remembering, 1.0, 0.0, 30.0).overshoot, 0.2);
}

TEST(PathFollower, TheIntegralRemovesASteadyDisturbance) {
  // A steering offset (e.g. a crosswind's yaw) of 0.02 1/m: P+D alone leave e = 0.02/kp
  // (the command −kp·e cancels it); the integral takes the error to zero
  const PathFollowerGains gains = PathFollowerGains::for_distance(2.4);
  PathFollower pid(gains, 0.9);
  EXPECT_LT(std::abs(drive(pid, 0.0, 0.02, 60.0).final_error), 1e-4);
  PathFollower pd({.kp = gains.kp, .ki = 0.0, .kd = gains.kd}, 0.9);
  EXPECT_NEAR(drive(pd, 0.0, 0.02, 60.0).final_error, 0.02 / gains.kp, 1e-4);
}

TEST(PathFollower, FeedsTheCurvatureForward) {
  PathFollower follower(PathFollowerGains::for_distance(3.0), 1.0);
  const runtime::PathSample on_arc{.s = 5.0, .cross_track = 0.0, .heading = 0.3, .curvature = 0.05};
  EXPECT_DOUBLE_EQ(follower.update(on_arc, 0.3, 0.1), 0.05);  // on the path: κ_path exactly
  const runtime::PathSample off{.s = 5.0, .cross_track = 10.0, .heading = 0.0, .curvature = 0.0};
  EXPECT_DOUBLE_EQ(follower.update(off, 0.0, 0.1), -1.0);  // clamped at the steering's limit
}

TEST(SpeedPlan, StepsByTimeAndBrakesToTheEndOfAPath) {
  const runtime::CoursePath path({{.x = 0, .y = 0}, {.x = 50, .y = 0}, {.x = 100, .y = 0}});
  config::DrivingPlan steps{.steps = {{.at_s = 1.0, .speed = 2.0}, {.at_s = 5.0, .speed = 0.5}}};
  const SpeedPlan by_time(steps, path);
  const runtime::PathSample at{.s = 10.0};
  EXPECT_EQ(by_time.target(0.5, at), 0.0);
  EXPECT_EQ(by_time.target(1.0, at), 2.0);
  EXPECT_EQ(by_time.target(7.0, at), 0.5);
  // Ramps at the plan's limits: 1 m/s² up, 1.5 m/s² down
  EXPECT_DOUBLE_EQ(by_time.follow(0.0, 2.0, 0.02), 0.02);
  EXPECT_DOUBLE_EQ(by_time.follow(2.0, 0.0, 0.02), 2.0 - 0.03);

  config::DrivingPlan points{
      .point_speed = {3.0, 1.0, 1.0}, .stop_at_end = true, .max_deceleration = 2.0};
  const SpeedPlan by_point(points, path);
  EXPECT_EQ(by_point.target(0.0, {.s = 20.0, .segment = 0}), 3.0);
  EXPECT_EQ(by_point.target(0.0, {.s = 60.0, .segment = 1}), 1.0);
  // 0.16 m before the end: √(2·2·0.16) = 0.8 m/s
  EXPECT_NEAR(by_point.target(0.0, {.s = 99.84, .segment = 1}), 0.8, 1e-12);
  EXPECT_EQ(by_point.target(0.0, {.s = 101.0, .segment = 1}), 0.0);
}

TEST(WrapAngle, StaysInMinusPiToPi) {
  EXPECT_NEAR(runtime::wrap_angle(2.0 * std::numbers::pi + 0.25), 0.25, 1e-15);
  EXPECT_DOUBLE_EQ(runtime::wrap_angle(-std::numbers::pi), std::numbers::pi);  // (−π, π]
  EXPECT_NEAR(runtime::wrap_angle(-3.0 * std::numbers::pi / 2.0), std::numbers::pi / 2.0, 1e-15);
  EXPECT_DOUBLE_EQ(runtime::wrap_angle(0.25), 0.25);
}

}  // namespace
}  // namespace hil::ecu
