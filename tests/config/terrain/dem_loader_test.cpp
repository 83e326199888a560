// DEM loading from files (config/terrain/dem_loader.hpp): heights + surface-code grid, geometry and
// code checks, unreadable files, and every seed of the fuzz corpus.

#include "config/terrain/dem_loader.hpp"
#include "config/terrain/esri_ascii.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "models/terrain/terrain_dem.hpp"

namespace hil::config {
namespace {

namespace fs = std::filesystem;

class DemLoader : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("hil_dem_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }

  fs::path dir_;
};

constexpr const char* kHeights =
    "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
    "10 11 12\n"
    "20 21 22\n";

TEST_F(DemLoader, HeightsAndSurfacesFromFiles) {
  const fs::path z = write("heights.asc", kHeights);
  const fs::path s = write("surfaces.asc",
                           "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                           "3 3 4\n"
                           "0 1 5\n");
  const models::DemTerrain t(config::load_dem(z, s));
  EXPECT_DOUBLE_EQ(t.height(0.5, 0.5), 20.0);  // south-west node (south row is the last)
  EXPECT_DOUBLE_EQ(t.height(2.5, 1.5), 12.0);  // north-east node
  EXPECT_DOUBLE_EQ(t.height(1.0, 1.0), 15.5);  // centre of the west patch: (20+21+10+11)/4
  EXPECT_EQ(t.surface(0.5, 0.5).type, models::Surface::dry);
  EXPECT_EQ(t.surface(1.5, 0.2).type, models::Surface::wet);
  EXPECT_EQ(t.surface(2.9, 0.2).type, models::Surface::clay);
  EXPECT_EQ(t.surface(0.1, 1.9).type, models::Surface::ice);
  EXPECT_EQ(t.surface(2.5, 1.5).type, models::Surface::sand);
}

TEST_F(DemLoader, WithoutSurfaceGridEveryCellIsTheFallback) {
  const models::DemGrid g =
      config::load_dem(write("heights.asc", kHeights), std::nullopt, models::Surface::snow);
  EXPECT_EQ(g.surface(1.0, 1.0), models::Surface::snow);
}

std::string load_error(const fs::path& z, const std::optional<fs::path>& s) {
  try {
    (void)config::load_dem(z, s);
  } catch (const DemError& e) {
    return e.what();
  }
  return "";
}

TEST_F(DemLoader, SurfaceCodesMustBeIntegersZeroToFive) {
  const fs::path z = write("heights.asc", kHeights);
  const fs::path s = write("surfaces.asc",
                           "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                           "0 0 0\n0 6 0\n");
  EXPECT_EQ(load_error(z, s), s.string() +
                                  ":7: row 2 value 2 is 6; expected an integer surface code 0..5 "
                                  "(0 dry, 1 wet, 2 snow, 3 ice, 4 sand, 5 clay)");
  const fs::path half = write("half.asc",
                              "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                              "0 0 0\n0 1.5 0\n");
  EXPECT_NE(load_error(z, half).find(":7: row 2 value 2 is 1.5; expected an integer"),
            std::string::npos);
}

TEST_F(DemLoader, SurfaceGridMustMatchTheHeightGrid) {
  const fs::path z = write("heights.asc", kHeights);
  const fs::path s = write("surfaces.asc",
                           "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 2\n"
                           "0 0 0\n0 0 0\n");
  EXPECT_EQ(load_error(z, s),
            s.string() +
                ":1: grid is ncols 3, nrows 2, first cell centre (1, 1), cellsize 2; "
                "expected the geometry of " +
                z.string() + ": ncols 3, nrows 2, first cell centre (0.5, 0.5), cellsize 1");
}

TEST_F(DemLoader, MissingFileSaysWhich) {
  const std::string e = load_error(dir_ / "nope.asc", std::nullopt);
  EXPECT_EQ(e, (dir_ / "nope.asc").string() + ": cannot read (No such file or directory)");
}

TEST_F(DemLoader, EveryFuzzSeedLoadsOrFailsWithALocatedMessage) {
  int seeds = 0;
  for (const auto& entry : fs::directory_iterator(HIL_DEM_FUZZ_CORPUS)) {
    ++seeds;
    const std::string e = load_error(entry.path(), std::nullopt);
    if (!e.empty()) {
      EXPECT_EQ(e.rfind(entry.path().string() + ":", 0), 0u) << e;
    }
  }
  EXPECT_GT(seeds, 0);
}

// dem_fuzz crash-14aa3249 (minimised): a height of 1e308 made the slope to its neighbour
// overflow to inf and the normal NaN. Heights are now limited to ±kMaxDemHeight.
TEST(DemFuzzRegression, HugeHeightIsRejectedNotANaNNormal) {
  const std::string text =
      "\n\nNCOLS +2\r\nNROWS 2\t\nXLLCENTER 10.5\r\nYLLCENTER -3\r\nCELLSIZE 0.24\r\n"
      "5e0 -2\r\n3 1e308\n\n";
  try {
    (void)config::dem_from_text({"heights.asc", text});
    ADD_FAILURE() << "accepted a height of 1e308";
  } catch (const DemError& e) {
    EXPECT_STREQ(e.what(),
                 "heights.asc:9: row 2 value 2 is 1e+308; expected a height within ±100000 m");
  }
}

}  // namespace
}  // namespace hil::config
