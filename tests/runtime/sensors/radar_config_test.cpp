// The radar's block in a rig file (config/radar_spec.hpp) as `hilsim check` reports it: the
// defaults, and each mistake located at the line and column that wrote it — a bus the rig does
// not have, a bus whose DBC lacks the object list, values out of range, names.

#include "config/radar_spec.hpp"

#include <gtest/gtest.h>

#include "config/rig/loader.hpp"
#include "tests/support/rig_overlay.hpp"

namespace hil::config {
namespace {

/// The HMMWV rig with `overlay` on top.
LoadResult with_overlay(const std::string& overlay) {
  return test::shipped_rig_with_overlay("hmmwv", overlay);
}

constexpr const char* kRadarBus = R"(
can {
  buses { name: "ecu" uri: "virtual:hmmwv" dbc: "hmmwv.dbc" }
  buses { name: "radar" uri: "virtual:r" dbc: "../common/radar_objects.dbc" }
}
)";

TEST(RadarConfig, DefaultsFilledIn) {
  const LoadResult r = with_overlay(std::string(kRadarBus) +
                                    R"(range_sensors { radars { name: "front" bus: "radar" } })");
  ASSERT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].to_string());
  ASSERT_EQ(r.settings->radars.size(), 1U);
  const RadarSpec& s = r.settings->radars[0];
  EXPECT_EQ(s.bus, 1U);
  EXPECT_DOUBLE_EQ(s.cycle_s, 0.070);
  EXPECT_DOUBLE_EQ(s.params.range_max, 200.0);
  EXPECT_NEAR(s.params.fov_azimuth, M_PI / 2, 1e-15);
  EXPECT_EQ(s.params.max_objects, 32U);
  EXPECT_DOUBLE_EQ(s.params.distance_noise, 0.1);
  EXPECT_DOUBLE_EQ(s.params.velocity_noise, 0.1);
  EXPECT_EQ(describe(s, r.settings->can[1]),
            "front: 90° × 200 m every 70 ms, up to 32 objects, mount (0.00, 0.00, 0.00) m, noise "
            "0.1 m / 0.1 m/s → CAN bus radar (0x60A + 0x60B per object)");
}

TEST(RadarConfig, AnUnknownBusIsLocated) {
  const LoadResult r = with_overlay(std::string(kRadarBus) +
                                    "range_sensors {\n"
                                    "  radars { name: \"front\"\n"
                                    "           bus: \"radr\" }\n"
                                    "}\n");
  ASSERT_EQ(r.errors.size(), 1U);
  const ConfigError& e = r.errors[0];
  EXPECT_EQ(e.field, "range_sensors.radars[0].bus");
  EXPECT_EQ(e.line, 8);  // kRadarBus is 5 lines, then range_sensors, radars, bus
  EXPECT_EQ(e.column, 17);
  EXPECT_NE(e.message.find("\"radr\" is not a CAN bus of the rig (did you mean radar?)"),
            std::string::npos)
      << e.message;
  EXPECT_NE(e.file.find("test_overlay.pbtxt"), std::string::npos);
}

TEST(RadarConfig, ABusWhoseDbcLacksTheObjectListIsAnError) {
  const LoadResult r = with_overlay(std::string(kRadarBus) +
                                    R"(range_sensors { radars { name: "front" bus: "ecu" } })");
  ASSERT_EQ(r.errors.size(), 2U);  // both messages missing
  EXPECT_EQ(r.errors[0].field, "range_sensors.radars[0].bus");
  EXPECT_NE(r.errors[0].message.find("has no message Radar_ObjectListStatus"), std::string::npos)
      << r.errors[0].message;
  EXPECT_NE(r.errors[1].message.find("has no message Radar_ObjectGeneral"), std::string::npos);
}

TEST(RadarConfig, ValuesOutOfRangeAndBadNames) {
  const LoadResult r = with_overlay(std::string(kRadarBus) + R"(range_sensors {
  radars { name: "Front" bus: "radar" cycle_ms: 5 max_objects: 200 }
  radars { name: "rear" bus: "radar" fov_azimuth_deg: 400 distance_noise_m: -1 }
  radars { name: "rear" bus: "radar" range_max_m: 5000 mount { x: 99 } }
  radars { name: "roof" bus: "radar" }
  lidars { name: "roof" }
})");
  std::vector<std::string> fields;
  for (const ConfigError& e : r.errors) fields.push_back(e.field);
  EXPECT_EQ(fields,
            (std::vector<std::string>{
                "range_sensors.radars[0].name", "range_sensors.radars[0].cycle_ms",
                "range_sensors.radars[0].max_objects", "range_sensors.radars[1].fov_azimuth_deg",
                "range_sensors.radars[1].distance_noise_m", "range_sensors.radars[2].name",
                "range_sensors.radars[2].mount.x", "range_sensors.radars[2].range_max_m",
                "range_sensors.radars[3].name"}));
  for (const ConfigError& e : r.errors) EXPECT_GT(e.line, 5) << e.to_string();
}

}  // namespace
}  // namespace hil::config
