// The driven trail (io/scene/scene_trail.hpp): positions at least 0.1 m apart, the last 2000,
// oldest first.

#include <gtest/gtest.h>

#include <cmath>

#include "io/scene/scene_trail.hpp"

namespace hil::io::scene {
namespace {

TEST(SceneTrail, KeepsPositionsAtLeastTheSpacingApart) {
  SceneTrail trail;
  for (int i = 0; i <= 100; ++i) trail.add(0.03 * i, 0, 0);  // 3 m in 3 cm steps
  std::vector<ScenePoint> points;
  trail.points(points);
  ASSERT_EQ(points.size(), 26U) << "every fourth: 0.12 m apart";
  for (std::size_t i = 1; i < points.size(); ++i) {
    EXPECT_NEAR(points[i].x - points[i - 1].x, 0.12, 1e-9);
  }
}

TEST(SceneTrail, HoldsTheLastPositionsOldestFirst) {
  SceneTrail trail;
  const int n = static_cast<int>(kTrailPoints) + 500;
  for (int i = 0; i < n; ++i) trail.add(i, 0, 0);
  std::vector<ScenePoint> points;
  trail.points(points);
  ASSERT_EQ(points.size(), kTrailPoints);
  EXPECT_EQ(points.front().x, 500);
  EXPECT_EQ(points.back().x, n - 1);
  trail.add(std::nan(""), 0, 0);
  EXPECT_EQ(trail.size(), kTrailPoints) << "a non-finite position is not kept";
}

}  // namespace
}  // namespace hil::io::scene
