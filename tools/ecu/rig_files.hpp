#pragma once
// Rigs and scenarios by name: `--rig ravon` is hil_rigs/ravon/rig.pbtxt, `--scenario
// double_lane_change` is hil_rigs/scenarios/double_lane_change.pbtxt. A name that is an
// existing file is taken as it is. Searched, in order: $HILSIM_RIGS (a hil_rigs directory),
// ./hil_rigs, and the source tree's hil_rigs the binary was built from. Setup phase; throws
// std::runtime_error listing where it looked and the names it found there.

#include <filesystem>
#include <string_view>
#include <vector>

namespace hil::ecu {

[[nodiscard]] std::filesystem::path find_rig_file(std::string_view name_or_path);
[[nodiscard]] std::filesystem::path find_scenario_file(std::string_view name_or_path);

/// The hil_rigs directories searched, in order (those that exist).
[[nodiscard]] std::vector<std::filesystem::path> rig_directories();

}  // namespace hil::ecu
