// The rig's recording block (config/recording_spec.hpp): scene_rate_hz, the 3D scene's rate in
// telemetry.mcap — 50 Hz unless set, 0 for no scene, a located error outside 0..tick rate.

#include "config/recording_spec.hpp"

#include <gtest/gtest.h>

#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using testing::LoaderTest;

TEST_F(LoaderTest, TheSceneIsRecordedAtFiftyHertzUnlessTheRigSaysOtherwise) {
  const LoadResult unset = load("recording { compression: \"lz4\" }\n");
  ASSERT_TRUE(unset.ok()) << ::testing::PrintToString(messages(unset));
  EXPECT_EQ(unset.settings->recording.scene_rate_hz, 50.0);
  const LoadResult off = load("recording { scene_rate_hz: 0 }\n");
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off.settings->recording.scene_rate_hz, 0.0);
  const LoadResult fast = load("recording { scene_rate_hz: 200 }\n");
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast.settings->recording.scene_rate_hz, 200.0);
}

TEST_F(LoaderTest, ASceneRateOutsideZeroToTheTickRateIsALocatedError) {
  EXPECT_EQ(load_errors("recording {\n  scene_rate_hz: -5\n}\n"),
            Errors{"base.pbtxt:2:18: recording.scene_rate_hz: -5 Hz is not a scene rate of this "
                   "rig: 0 (no scene) or > 0 and at most its tick rate, 4000 Hz"});
  EXPECT_EQ(load_errors("executive { period_us: 1000 }\nrecording { scene_rate_hz: 1500 }\n"),
            Errors{"base.pbtxt:2:28: recording.scene_rate_hz: 1500 Hz is not a scene rate of "
                   "this rig: 0 (no scene) or > 0 and at most its tick rate, 1000 Hz"});
}

}  // namespace
}  // namespace hil::config
