// A surface's Bekker–Wong soil in the rig file (config/terrain/soil_spec.hpp): by name, with
// explicit parameters on top, Reece's form, and every bad value a located error.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "models/terrain/bekker_soil.hpp"
#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using SoilConfigTest = testing::LoaderTest;

TEST_F(SoilConfigTest, APatchNamesASoilOfTheTables) {
  const LoadResult result = load(R"(
    vehicle {}
    terrain {
      flat {}
      patches { x_min: 10 x_max: 20 y_min: -3 y_max: 3 surface { type: "sand" soil: "dry_sand" } }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::BekkerSoil s = result.settings->terrain->surface(15, 0).soil;
  EXPECT_EQ(s.n, 1.1);  // Wong's dry sand (LLL)
  EXPECT_EQ(s.k_phi, 1528.43e3);
  EXPECT_NEAR(s.phi, 28.0 * std::numbers::pi / 180.0, 1e-15);
  EXPECT_FALSE(result.settings->terrain->surface(25, 0).soil.valid());  // dry ground
}

TEST_F(SoilConfigTest, ExplicitParametersGoOnTopAndReecesFormWhenItsModuliAreSet) {
  const LoadResult result = load(R"(
    vehicle {}
    terrain {
      flat {}
      surface { soil: "sandy_loam" soil_parameters { cohesion_pa: 2500 shear_modulus_m: 0.01 } }
      classes { type: "clay" soil_parameters { n: 0.5 k_c_prime: 30 k_phi_prime: 150
                                               gamma_s: 15000 cohesion_pa: 4000 } }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const models::BekkerSoil s = result.settings->terrain->surface(0, 0).soil;
  EXPECT_EQ(s.n, 0.7);  // sandy loam's
  EXPECT_EQ(s.c, 2500.0);
  EXPECT_EQ(s.K, 0.01);
  EXPECT_EQ(s.law, models::BekkerSoil::Law::bekker);
}

TEST_F(SoilConfigTest, BadSoilsAreLocatedErrors) {
  const Errors unknown = load_errors("vehicle {}\nterrain { surface { soil: \"quicksand\" } }\n");
  ASSERT_EQ(unknown.size(), 1U);
  EXPECT_EQ(unknown[0].rfind("base.pbtxt:2:27: terrain.surface.soil: unknown soil \"quicksand\"; "
                             "expected one of dry_sand, sandy_loam",
                             0),
            0U)
      << unknown[0];
  EXPECT_EQ(load_errors("vehicle {}\nterrain { surface { soil: \"dry_sand\" soil_parameters { "
                        "friction_angle_deg: 95 } } }\n"),
            Errors{"base.pbtxt:2:76: terrain.surface.soil_parameters.friction_angle_deg: 95 is "
                   "out of range; expected 0..89 [deg]"});
  EXPECT_EQ(load_errors("vehicle {}\nterrain { surface { soil_parameters { k_c: 1000 } } }\n"),
            Errors{"base.pbtxt:2:21: terrain.surface.soil_parameters.n: no sinkage exponent; "
                   "expected n > 0 (or a soil by name)"});
  // A named soil needs no cone index, even on a VTI soil class
  const LoadResult clay =
      load("vehicle {}\nterrain { surface { type: \"clay\" soil: \"lean_clay\" } }\n");
  EXPECT_TRUE(clay.ok()) << ::testing::PrintToString(messages(clay));
}

}  // namespace
}  // namespace hil::config
