#pragma once
// A shipped rig with a test's overlay on top, loaded as `hilsim check --overlay` would load it:
// the overlay is named as a file beside the rig (test_overlay.pbtxt), so its relative paths
// (DBCs, FMUs) resolve as they would in the rig's own directory and its errors are located
// there. Thread-safety: a function of its arguments.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config/rig/loader.hpp"

namespace hil::test {

/// hil_rigs/<rig>/rig.pbtxt with `overlay` as its second layer.
inline config::LoadResult shipped_rig_with_overlay(const std::string& rig,
                                                   const std::string& overlay) {
  const std::string dir = std::string(HIL_SOURCE_DIR "/hil_rigs/") + rig;
  std::ifstream in(dir + "/rig.pbtxt");
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<config::ConfigText> layers{{dir + "/rig.pbtxt", text.str()},
                                               {dir + "/test_overlay.pbtxt", overlay}};
  return config::load_rig_config_text(layers);
}

}  // namespace hil::test
