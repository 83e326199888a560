#pragma once
// A fixture that writes rig files into a fresh directory, loads them, and shows the errors
// as the user sees them (without the temporary directory).

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "config/rig/loader.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::config::testing {

inline constexpr Machine kFourCpus{.configured_cpus = 4};

using Errors = std::vector<std::string>;

class LoaderTest : public ::testing::Test {
 protected:
  /// Writes `base` to base.pbtxt and each overlay to overlay<N>.pbtxt, then loads them.
  LoadResult load(std::string_view base, std::vector<std::string_view> overlays = {}) {
    const auto base_path = dir_.write("base.pbtxt", base);
    std::vector<std::filesystem::path> overlay_paths;
    for (std::size_t i = 0; i < overlays.size(); ++i) {
      overlay_paths.push_back(
          dir_.write("overlay" + std::to_string(i + 1) + ".pbtxt", overlays[i]));
    }
    return load_rig_config(base_path, overlay_paths, kFourCpus);
  }

  /// The errors as the user sees them, with the temporary directory left out.
  std::vector<std::string> messages(const LoadResult& result) const {
    std::vector<std::string> out;
    const std::string prefix = dir_.path().string() + "/";
    for (const ConfigError& error : result.errors) {
      std::string text = error.to_string();
      if (text.starts_with(prefix)) text.erase(0, prefix.size());
      out.push_back(std::move(text));
    }
    return out;
  }

  std::vector<std::string> load_errors(std::string_view base,
                                       std::vector<std::string_view> overlays = {}) {
    const LoadResult result = load(base, std::move(overlays));
    EXPECT_FALSE(result.ok());
    return messages(result);
  }

  TempDir dir_;
};

}  // namespace hil::config::testing
