// The `vehicle` and `terrain` blocks of a rig file: presets with overrides, and errors that
// point at the value in force (file:line:column, field, what is expected).

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/can_spec.hpp"
#include "models/terrain/terrain_dem.hpp"
#include "models/terrain/terrain_incline.hpp"
#include "models/vehicle/vehicle_presets.hpp"
#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using testing::LoaderTest;

using VehicleConfigTest = LoaderTest;

TEST_F(VehicleConfigTest, ARigWithoutAVehicleHasNoneAndNoTerrain) {
  const LoadResult result = load("executive { period_us: 100000 }");  // 10 Hz: fine without one
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  EXPECT_FALSE(result.settings->vehicle.has_value());
  EXPECT_EQ(result.settings->terrain, nullptr);
}

TEST_F(VehicleConfigTest, PresetWithOverridesAndThePeriodAsStep) {
  const LoadResult result = load(R"(
    executive { period_us: 500 }
    vehicle {
      preset: "hmmwv"
      sprung { mass: 2500 ixy: 12 }
      axles {}
      axles { tire { rolling_resistance: 0.02 } brake { park_torque: 3000 } }
      aero { drag_coefficient: 0.8 }
      sensors { gnss { rate_hz: 5 origin { latitude_deg: 45 } } }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::VehicleParams& p = *result.settings->vehicle;
  const models::VehicleParams hmmwv = models::hmmwv_params();
  EXPECT_EQ(p.dt, 500e-6);
  EXPECT_EQ(p.sprung.mass, 2500.0);
  EXPECT_EQ(p.sprung.inertia(0, 1), 12.0);
  EXPECT_EQ(p.sprung.inertia(1, 0), 12.0);
  EXPECT_EQ(p.axles[0].tire.rolling_resistance, hmmwv.axles[0].tire.rolling_resistance);
  EXPECT_EQ(p.axles[1].tire.rolling_resistance, 0.02);
  EXPECT_EQ(p.axles[1].tire.diameter, hmmwv.axles[1].tire.diameter);  // untouched: preset
  EXPECT_EQ(p.axles[1].brake.park_torque, 3000.0);
  EXPECT_EQ(p.aero.drag_coefficient, 0.8);
  EXPECT_EQ(p.sensors.gnss.rate_hz, 5.0);
  EXPECT_EQ(p.sensors.gnss.origin.latitude_deg, 45.0);
  EXPECT_EQ(p.axle_count, 2U);
  ASSERT_NE(result.settings->terrain, nullptr);  // default: flat dry ground
  EXPECT_EQ(result.settings->terrain->height(3.0, 4.0), 0.0);
}

TEST_F(VehicleConfigTest, ModelChecksPointAtTheLineThatSetTheValue) {
  EXPECT_EQ(load_errors("vehicle {\n"
                        "  axles {}\n"
                        "  axles { tire { diameter: -1 } }\n"
                        "  sprung { mass: 0 }\n"
                        "}\n"),
            (Errors{
                "base.pbtxt:4:18: vehicle.sprung.mass: must be > 0 (got 0)",
                "base.pbtxt:3:28: vehicle.axles[1].tire.diameter: must be > 0 (got -1)",
            }));
}

TEST_F(VehicleConfigTest, AnOverlayValueIsReportedInTheOverlay) {
  EXPECT_EQ(
      load_errors("vehicle { preset: \"ravon\" }", {"vehicle {\n  aero { frontal_area: -2 }\n}\n"}),
      Errors{"overlay1.pbtxt:2:24: vehicle.aero.frontal_area: must be >= 0 (got -2)"});
}

TEST_F(VehicleConfigTest, UnknownPresetSuggestsTheClosest) {
  EXPECT_EQ(load_errors("vehicle { preset: \"ravn\" }"),
            Errors{"base.pbtxt:1:19: vehicle.preset: unknown preset \"ravn\"; did you mean "
                   "\"ravon\"? (presets: ravon, hmmwv)"});
}

TEST_F(VehicleConfigTest, BrakeTooStiffForTheStepSaysWhatToChange) {
  const Errors errors = load_errors(
      "executive { period_us: 10000 }\n"
      "vehicle { max_step: 0.01 axles { brake { lock_frequency_hz: 150 } } }\n");
  ASSERT_EQ(errors.size(), 2U);  // the rear axle's, from the preset, too
  EXPECT_NE(errors[1].find("vehicle.axles[1].brake.lock_frequency_hz"), std::string::npos);
  EXPECT_EQ(errors[0].substr(0, 70),
            "base.pbtxt:2:61: vehicle.axles[0].brake.lock_frequency_hz: must be <= ");
  EXPECT_NE(errors[0].find("lower max_step"), std::string::npos);
}

TEST_F(VehicleConfigTest, TerrainKindsAndSurfaces) {
  const LoadResult result = load(R"(
    vehicle {}
    terrain { incline { grade_percent: 10 } surface { type: "wet" friction_scale: 0.8 } })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::Terrain& t = *result.settings->terrain;
  EXPECT_NEAR(t.height(10.0, 0.0), 1.0, 1e-12);
  EXPECT_EQ(t.surface(0, 0).type, models::Surface::wet);
  EXPECT_EQ(t.surface(0, 0).friction_scale, 0.8);
}

TEST_F(VehicleConfigTest, SurfacePatchesOverTheGround) {
  const LoadResult result = load(R"(
    vehicle {}
    terrain {
      flat { z0: 1 }
      patches { x_min: 10 x_max: 20 y_min: -3 y_max: 3 surface { type: "ice" } }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  EXPECT_EQ(result.settings->terrain->surface(15, 0).type, models::Surface::ice);
  EXPECT_EQ(result.settings->terrain->surface(25, 0).type, models::Surface::dry);
  EXPECT_EQ(result.settings->terrain->height(15, 0), 1.0);
  EXPECT_EQ(load_errors("vehicle {}\nterrain { patches { x_min: 5 x_max: 1 } }\n"),
            Errors{"base.pbtxt:2:11: terrain.patches[0]: x 5..1, y 0..0: expected x_min <= x_max "
                   "and y_min <= y_max"});
}

TEST_F(VehicleConfigTest, TerrainErrorsNameTheField) {
  EXPECT_EQ(load_errors("vehicle {}\n"
                        "terrain {\n"
                        "  surface { type: \"gravel\" }\n"
                        "  incline { grade_percent: 150 }\n"
                        "}\n"),
            (Errors{
                "base.pbtxt:3:19: terrain.surface.type: unknown surface \"gravel\"; expected dry, "
                "wet, snow, ice, sand or clay",
                "base.pbtxt:4:28: terrain.incline.grade_percent: 150 is out of range; expected "
                "-100..100 (percent: 100·rise/run)",
            }));
  EXPECT_EQ(load_errors("vehicle {}\nterrain { surface { type: \"sand\" } }\n"),
            Errors{"base.pbtxt:2:11: terrain.surface.cone_index_pa: sand soil needs a cone index "
                   "> 0 [Pa] (200e3 soft .. 1500e3 firm); got 0"});
}

TEST_F(VehicleConfigTest, DemFilesAreRelativeToTheRigFileAndTheirErrorsKeepTheirLines) {
  dir_.write("site.asc", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5 6\n");
  const LoadResult result = load(R"(
    vehicle {}
    terrain { dem { heights: "site.asc" } classes { type: "clay" cone_index_pa: 500000 } })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  EXPECT_NEAR(result.settings->terrain->height(1.5, 0.5), 5.0, 1e-12);  // south row: 4 5 6

  dir_.write("bad.asc", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5\n");
  const Errors errors = load_errors("vehicle {}\nterrain { dem { heights: \"bad.asc\" } }\n");
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_NE(errors[0].find("bad.asc:7"), std::string::npos) << errors[0];
  EXPECT_EQ(errors[0].substr(0, 29), "base.pbtxt:2:11: terrain.dem:");
}

}  // namespace
}  // namespace hil::config

namespace hil::config {
namespace {

using DriveConfigTest = testing::LoaderTest;

TEST_F(DriveConfigTest, ElectricDriveSettingsReachEveryMotor) {
  const LoadResult result = load(R"(
    vehicle {
      preset: "ravon"
      drive {
        electric { motor { resistance: 0.08 } controller { current_limit: 45 } gear { ratio: 40 }
                   battery { capacity: 120 } }
        initial_soc: 0.5
      }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::VehicleDriveParams& d = result.settings->vehicle->drive;
  EXPECT_EQ(d.kind, models::DriveKind::electric);
  EXPECT_EQ(d.initial_soc, 0.5);
  EXPECT_EQ(d.electric.motor_count, 4U);
  for (std::size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(d.electric.units[j].motor.resistance, 0.08);
    EXPECT_EQ(d.electric.units[j].controller.current_limit, 45.0);
    EXPECT_EQ(d.electric.units[j].gear.ratio, 40.0);
  }
  EXPECT_EQ(d.electric.battery.capacity, 120.0 * 3600.0);  // A·h in the file, C in the model
}

TEST_F(DriveConfigTest, AnExternalBatteryKeepsThePresetsBatteryParameters) {
  const LoadResult result =
      load("vehicle { drive { electric { battery { external: true } } initial_soc: 0.6 } }");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::ElectricDriveParams& e = result.settings->vehicle->drive.electric;
  const models::ElectricDriveParams ravon = models::ravon_params().drive.electric;
  EXPECT_TRUE(e.external_battery);
  EXPECT_EQ(e.battery.e0, ravon.battery.e0);  // initial voltage, cut-off and SOC: built-in
  EXPECT_EQ(e.battery.cutoff_voltage, ravon.battery.cutoff_voltage);
  EXPECT_EQ(e.battery.capacity, ravon.battery.capacity);

  const LoadResult both =
      load("vehicle { drive { electric { battery { external: true cutoff_voltage: 40 } } } }");
  ASSERT_TRUE(both.ok()) << ::testing::PrintToString(messages(both));
  EXPECT_TRUE(both.settings->vehicle->drive.electric.external_battery);
  EXPECT_EQ(both.settings->vehicle->drive.electric.battery.cutoff_voltage, 40.0);

  const LoadResult off = load("vehicle { drive { electric { battery { external: false } } } }");
  ASSERT_TRUE(off.ok()) << ::testing::PrintToString(messages(off));
  EXPECT_FALSE(off.settings->vehicle->drive.electric.external_battery);
  EXPECT_FALSE(load("vehicle {}").settings->vehicle->drive.electric.external_battery);
}

TEST_F(DriveConfigTest, TheShippedRavonRigWithAnExternalBatteryChecksAndHasTheChannel) {
  // What `hilsim check hil_rigs/ravon/rig.pbtxt --overlay external.pbtxt --print` does: load,
  // then build the rig on in-process transports to list its channels
  const auto overlay =
      dir_.write("external.pbtxt", "vehicle { drive { electric { battery { external: true } } } }");
  const std::vector<std::filesystem::path> overlays{overlay};
  const LoadResult loaded =
      load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt", overlays, testing::kFourCpus);
  ASSERT_TRUE(loaded.ok()) << ::testing::PrintToString(messages(loaded));
  const models::VehicleParams& p = *loaded.settings->vehicle;
  ASSERT_TRUE(p.drive.electric.external_battery);
  rt::ChannelTable table;
  (void)add_rig_channels(table, loaded.settings->vehicle);
  const std::optional<rt::ChannelId> id = table.find("vehicle.battery.external_voltage");
  ASSERT_TRUE(id.has_value());
  const rt::ChannelSpec& spec = table.spec(*id);
  EXPECT_EQ(spec.direction, rt::Direction::input);
  EXPECT_EQ(spec.unit, "V");
  EXPECT_EQ(spec.initial,
            models::electric_drive_rest_voltage(p.drive.electric, p.drive.initial_soc));
  EXPECT_TRUE(table.find("vehicle.battery.current").has_value());

  const LoadResult built_in = load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(built_in.ok());
  EXPECT_FALSE(built_in.settings->vehicle->drive.electric.external_battery);
}

TEST_F(DriveConfigTest, CombustionPresetShiftModeAndTorqueCurve) {
  const LoadResult result = load(R"(
    vehicle {
      preset: "hmmwv"
      drive {
        combustion {
          preset: "autosim_car"
          shift_mode: "manual"
          forward_ratios: [3.5, 2.0, 1.3, 1.0]
          full_load_torque { speed: 100 torque: 120 }
          full_load_torque { speed: 400 torque: 150 }
          full_load_torque { speed: 650 torque: 110 }
        }
      }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::PowertrainParams& p = result.settings->vehicle->drive.combustion;
  EXPECT_EQ(p.transmission.mode, models::ShiftMode::manual);
  EXPECT_EQ(p.transmission.forward_count, 4U);
  EXPECT_EQ(p.transmission.forward_ratios[2], 1.3);
  EXPECT_EQ(p.engine.full_load_torque(400.0), 150.0);
  EXPECT_EQ(p.coupling, models::PowertrainCoupling::clutch);  // the AutoSim car's
}

TEST_F(DriveConfigTest, DriveErrorsPointAtTheField) {
  EXPECT_EQ(load_errors("vehicle {\n  drive { kind: \"hybrid\" }\n}\n"),
            Errors{"base.pbtxt:2:17: vehicle.drive.kind: unknown drive \"hybrid\"; expected "
                   "torque, electric or combustion"});
  const Errors torque_curve = load_errors(
      "vehicle {\n  preset: \"hmmwv\"\n  drive { combustion {\n"
      "    full_load_torque { speed: 300 torque: 100 }\n"
      "    full_load_torque { speed: 200 torque: 100 }\n  } }\n}\n");
  ASSERT_EQ(torque_curve.size(), 1U);
  EXPECT_NE(torque_curve[0].find("vehicle.drive.combustion.full_load_torque: lookup table: point "
                                 "1: x must increase strictly"),
            std::string::npos)
      << torque_curve[0];
  const Errors motor =
      load_errors("vehicle {\n  drive { electric { motor { inductance: 0 } } }\n}\n");
  ASSERT_EQ(motor.size(), 1U);
  EXPECT_NE(motor[0].find("units[0].motor.inductance"), std::string::npos) << motor[0];
}

}  // namespace
}  // namespace hil::config
