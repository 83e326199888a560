// The scene's frames at a tick (io/scene/scene_frames.hpp): world → body is the pose channels
// of that tick, its rotation the ISO 8855 z-y-x attitude (checked against the rotation matrix
// written out), each hub the wheel centre moved by the suspension travel and turned by the
// steer angle, each wheel turned by its spin.

#include <gtest/gtest.h>

#include <cmath>

#include "io/scene/scene_frames.hpp"
#include "tests/io/scene/scene_fixture.hpp"

namespace hil::io::scene {
namespace {

using testing::SceneTable;
using testing::two_axle_scene;

using Matrix = std::array<Vec3, 3>;  // rows

/// R = Rz(ψ)·Ry(θ)·Rx(φ), written out (ISO 8855, body to world).
Matrix euler_zyx(double phi, double theta, double psi) {
  const double cf = std::cos(phi);
  const double sf = std::sin(phi);
  const double ct = std::cos(theta);
  const double st = std::sin(theta);
  const double cp = std::cos(psi);
  const double sp = std::sin(psi);
  return {{{cp * ct, cp * st * sf - sp * cf, cp * st * cf + sp * sf},
           {sp * ct, sp * st * sf + cp * cf, sp * st * cf - cp * sf},
           {-st, ct * sf, ct * cf}}};
}

Vec3 times(const Matrix& m, const Vec3& v) {
  Vec3 out{};
  for (int r = 0; r < 3; ++r) out[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2];
  return out;
}

void expect_near(const Vec3& a, const Vec3& b, const std::string& what) {
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], 1e-12) << what << " [" << i << "]";
}

TEST(SceneFrames, TheBodyFrameIsThePoseChannelsOfTheTick) {
  const Scene scene = two_axle_scene();
  SceneTable table(scene);
  const SceneFrames frames(scene, table);
  for (const auto& [x, y, z, roll, pitch, yaw] :
       {std::array{12.5, -3.25, 0.61, 0.05, -0.12, 2.9}, std::array{0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
        std::array{-100.0, 40.0, 3.0, -0.4, 0.7, -3.1}}) {
    table.put("vehicle.body.position.x", x);
    table.put("vehicle.body.position.y", y);
    table.put("vehicle.body.position.z", z);
    table.put("vehicle.body.roll", roll);
    table.put("vehicle.body.pitch", pitch);
    table.put("vehicle.body.yaw", yaw);
    std::vector<FrameTransformValue> out;
    frames.frames(table.values(), out);
    ASSERT_EQ(out.size(), 9U);
    const FrameTransformValue& body = out[0];
    EXPECT_EQ(*body.parent, "world");
    EXPECT_EQ(*body.child, "body");
    expect_near(body.translation, {x, y, z}, "translation");
    const Quaternion& q = body.rotation;
    EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, 1e-12);
    const Matrix r = euler_zyx(roll, pitch, yaw);
    for (const Vec3& v : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}, Vec3{0.3, -2, 5}}) {
      expect_near(rotate(q, v), times(r, v), "R·v");
    }
  }
}

TEST(SceneFrames, PitchUpIsNoseDownAsTheChannelSays) {
  const Scene scene = two_axle_scene();
  SceneTable table(scene);
  table.put("vehicle.body.pitch", 0.1);  // + nose down (models/vehicle/vehicle_channels.cpp)
  const FrameTransformValue body = SceneFrames(scene, table).body(table.values());
  EXPECT_LT(rotate(body.rotation, {1, 0, 0})[2], -0.09) << "the nose points down";
}

TEST(SceneFrames, HubsFollowTravelAndSteerAndWheelsTheirSpin) {
  const Scene scene = two_axle_scene();
  SceneTable table(scene);
  table.put("vehicle.wheel.fr.suspension_travel", 0.04);
  table.put("vehicle.wheel.fr.steer_angle", -0.3);
  table.put("vehicle.wheel.fr.angle", 7.0);
  const SceneFrames frames(scene, table);
  std::vector<FrameTransformValue> out;
  frames.frames(table.values(), out);
  const FrameTransformValue& hub = out[3];  // body, fl hub, fl wheel, fr hub, …
  const FrameTransformValue& wheel = out[4];
  EXPECT_EQ(*hub.parent, "body");
  EXPECT_EQ(*hub.child, "hub_fr");
  EXPECT_EQ(*wheel.parent, "hub_fr");
  EXPECT_EQ(*wheel.child, "wheel_fr");
  expect_near(hub.translation, {1.2, -0.75, -0.3 + 0.04}, "compression lifts the wheel centre");
  expect_near(rotate(hub.rotation, {1, 0, 0}), {std::cos(-0.3), std::sin(-0.3), 0}, "steer");
  expect_near(wheel.translation, {0, 0, 0}, "the wheel turns about the hub's centre");
  expect_near(rotate(wheel.rotation, {1, 0, 0}), {std::cos(7.0), 0, -std::sin(7.0)}, "spin");
  expect_near(rotate(wheel.rotation, {0, 1, 0}), {0, 1, 0}, "about the axle");
  // the other wheels stay where they are
  expect_near(out[1].translation, {1.2, 0.75, -0.3}, "fl hub");
  expect_near(out[7].translation, {-0.8, -0.75, -0.3}, "rr hub");
}

TEST(SceneFrames, TireForcesAreTheForceChannels) {
  const Scene scene = two_axle_scene();
  SceneTable table(scene);
  table.put("vehicle.wheel.rl.longitudinal_force", 1200.0);
  table.put("vehicle.wheel.rl.lateral_force", -300.0);
  table.put("vehicle.wheel.rl.normal_force", 4000.0);
  const TireForce f = SceneFrames(scene, table).force(table.values(), 2);
  EXPECT_EQ(f.fx, 1200.0);
  EXPECT_EQ(f.fy, -300.0);
  EXPECT_EQ(f.fz, 4000.0);
}

TEST(SceneFrames, AMissingChannelIsNamed) {
  Scene scene = two_axle_scene();
  const SceneTable table(scene);
  scene.channels.wheels[1].steer = "vehicle.wheel.fr.steering";
  try {
    const SceneFrames frames(scene, table);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("vehicle.wheel.fr.steering"), std::string::npos);
  }
}

}  // namespace
}  // namespace hil::io::scene
