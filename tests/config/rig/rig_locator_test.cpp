// Where `--rig NAME` is found (config/rig/rig_locator.cpp): $HILSIM_RIGS first, each directory
// looked in once, and the source tree's rigs for a binary in its build tree, as this test is.
// The installed binary's side (rigs under its own prefix, never the source tree) is
// tests/install/smoke_test.sh's.

#include "config/rig/rig_locator.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "tests/support/temp_dir.hpp"

namespace hil::config {
namespace {

std::filesystem::path source_rigs() { return std::filesystem::path(HIL_SOURCE_DIR) / "hil_rigs"; }

/// Runs the test in `cwd` with $HILSIM_RIGS as given (empty: unset); restores both after.
class RigLocatorTest : public ::testing::Test {
 protected:
  static void enter(const std::filesystem::path& cwd, const std::string& hilsim_rigs) {
    std::filesystem::current_path(cwd);
    set_hilsim_rigs(hilsim_rigs.empty() ? std::nullopt : std::optional(hilsim_rigs));
  }
  void TearDown() override {
    std::filesystem::current_path(cwd_);
    set_hilsim_rigs(saved_);
  }

  testing::TempDir dir_;

 private:
  static std::optional<std::string> hilsim_rigs() {
    const char* value = std::getenv("HILSIM_RIGS");  // NOLINT(concurrency-mt-unsafe): one thread
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  }
  static void set_hilsim_rigs(const std::optional<std::string>& value) {
    // NOLINTBEGIN(concurrency-mt-unsafe): the test's only thread
    if (value) {
      setenv("HILSIM_RIGS", value->c_str(), 1);
    } else {
      unsetenv("HILSIM_RIGS");
    }
    // NOLINTEND(concurrency-mt-unsafe)
  }

  std::filesystem::path cwd_ = std::filesystem::current_path();
  std::optional<std::string> saved_ = hilsim_rigs();
};

std::string error_of(std::string_view rig) {
  try {
    (void)locate_rig(rig);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(found)";
}

TEST_F(RigLocatorTest, ABinaryInTheBuildTreeFindsTheSourceTreesRigs) {
  enter(dir_.path(), "");

  EXPECT_EQ(locate_rig("ravon"), source_rigs() / "ravon" / "rig.pbtxt");
  EXPECT_EQ(locate_scenario("hill_start"), source_rigs() / "scenarios" / "hill_start.pbtxt");
}

TEST_F(RigLocatorTest, HilsimRigsComesBeforeEveryOtherDirectory) {
  std::filesystem::create_directories(dir_.path() / "mine" / "ravon");
  dir_.write("mine/ravon/rig.pbtxt", "");
  enter(dir_.path(), (dir_.path() / "mine").string());

  EXPECT_EQ(locate_rig("ravon"), dir_.path() / "mine" / "ravon" / "rig.pbtxt");
  EXPECT_EQ(rig_search_path().front(), dir_.path() / "mine");
}

TEST_F(RigLocatorTest, AnUnknownRigListsEachPlaceOnceAndTheRigsThere) {
  enter(HIL_SOURCE_DIR, "");  // ./hil_rigs is the source tree's: looked in once

  const std::string error = error_of("nosuch");

  EXPECT_EQ(error,
            "no rig \"nosuch\"; looked for\n  hil_rigs/nosuch/rig.pbtxt\nrigs available: bench, "
            "hmmwv, ravon (or give a path to a .pbtxt file; set HILSIM_RIGS to add a directory)");
}

}  // namespace
}  // namespace hil::config
