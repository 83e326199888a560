// The lidar's block in a rig file (config/lidar_spec.hpp) as `hilsim check` reports it: the
// defaults filled in, the shipped perception overlays, and each mistake located at the line
// and column that wrote it.
#include "config/lidar_spec.hpp"

#include <gtest/gtest.h>

#include "config/rig/loader.hpp"
#include "tests/support/rig_overlay.hpp"

namespace hil::config {
namespace {

/// The HMMWV rig with `overlay` on top.
LoadResult with_overlay(const std::string& overlay) {
  return test::shipped_rig_with_overlay("hmmwv", overlay);
}

TEST(LidarConfig, DefaultsFilledIn) {
  const LoadResult r = with_overlay(R"(range_sensors { lidars { name: "roof" } })");
  ASSERT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].to_string());
  ASSERT_EQ(r.settings->lidars.size(), 1U);
  const LidarSpec& s = r.settings->lidars[0];
  EXPECT_EQ(s.params.preset, models::lidar::PresetId::vlp16);
  EXPECT_DOUBLE_EQ(s.params.rotation_hz, 10.0);
  EXPECT_DOUBLE_EQ(s.params.range_max_m, 100.0);
  EXPECT_DOUBLE_EQ(s.params.range_noise_m, 0.01);
  EXPECT_DOUBLE_EQ(s.params.dropout, 0.0);
  EXPECT_EQ(s.uri, "none");
  EXPECT_TRUE(s.record_points);
  EXPECT_EQ(describe(s),
            "roof: VLP16 at 10 Hz (16 beams, 0.199° steps, 753.5 packets/s, 100 m), mount (0.00, "
            "0.00, 0.00) m, noise 0.010 m, dropout 0, → none, points recorded");
  const LoadResult h = with_overlay(R"(range_sensors { lidars { name: "big" preset: HDL64 } })");
  ASSERT_TRUE(h.ok());
  EXPECT_DOUBLE_EQ(h.settings->lidars[0].params.range_max_m, 120.0);
}

TEST(LidarConfig, TheShippedPerceptionOverlaysCarryARoofVlp16) {
  for (const char* rig : {"hmmwv", "ravon"}) {
    const std::filesystem::path base = std::string(HIL_SOURCE_DIR "/hil_rigs/") + rig;
    const std::vector<std::filesystem::path> overlays{base / "perception.pbtxt"};
    const LoadResult r = load_rig_config(base / "rig.pbtxt", overlays);
    ASSERT_TRUE(r.ok()) << rig << ": " << (r.errors.empty() ? "" : r.errors[0].to_string());
    ASSERT_EQ(r.settings->lidars.size(), 1U) << rig;
    EXPECT_EQ(r.settings->lidars[0].name, "roof");
    EXPECT_EQ(r.settings->lidars[0].uri, "udp://127.0.0.1:2368");
    EXPECT_GT(r.settings->lidars[0].mount.position.z(), 0.5) << rig << ": above the CG";
  }
}

TEST(LidarConfig, MistakesAreLocatedAtTheirValues) {
  const LoadResult r = with_overlay(
      "range_sensors {\n"
      "  lidars { name: \"roof\" rotation_hz: 40 }\n"
      "  lidars { name: \"roof\" dropout: 1.5\n"
      "           uri: \"tcp://x\" }\n"
      "  lidars { name: \"Big\" preset: HDL64 uri: \"udp://127.0.0.1\" mount { yaw: 4 } }\n"
      "}\n");
  std::vector<std::string> got;
  for (const ConfigError& e : r.errors) {
    got.push_back(std::to_string(e.line) + ":" + std::to_string(e.column) + " " + e.field);
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "2:38 range_sensors.lidars[0].rotation_hz",
                     "3:18 range_sensors.lidars[1].name",
                     "3:34 range_sensors.lidars[1].dropout",
                     "4:17 range_sensors.lidars[1].uri",
                     "5:18 range_sensors.lidars[2].name",
                     "5:74 range_sensors.lidars[2].mount.yaw",
                     "5:43 range_sensors.lidars[2].uri",
                 }));
  ASSERT_EQ(r.errors.size(), 7U);
  EXPECT_NE(r.errors[0].message.find("40 is out of range; expected 5..20"), std::string::npos);
  EXPECT_NE(r.errors[1].message.find("the name of another lidar"), std::string::npos);
  EXPECT_NE(r.errors[3].message.find("expected \"udp://HOST[:PORT]\" or \"none\""),
            std::string::npos);
  EXPECT_NE(r.errors[6].message.find("recorded only"), std::string::npos);
  EXPECT_NE(r.errors[0].file.find("test_overlay.pbtxt"), std::string::npos);
}

TEST(LidarConfig, ALidarNeedsAVehicle) {
  const std::vector<ConfigText> layers{
      {"bench.pbtxt", "executive { period_us: 250 }\nrange_sensors { lidars { name: \"r\" } }\n"}};
  const LoadResult r = load_rig_config_text(layers);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].field, "range_sensors.lidars[0]");
  EXPECT_NE(r.errors[0].message.find("the rig has none"), std::string::npos);
}

}  // namespace
}  // namespace hil::config
