#pragma once
// Where `hilsim run --rig NAME` finds its rig: NAME as a path when it names a file
// (contains '/' or ends in .pbtxt), else <dir>/NAME/rig.pbtxt in the first of these that has
// it: $HILSIM_RIGS, ./hil_rigs, the installed rigs (share/hilsim/rigs of the prefix the running
// binary is in, found relative to it), and the source tree's hil_rigs only for a binary that
// runs from the build tree it was built in. Scenarios likewise: <dir>/scenarios/NAME.pbtxt.
// Setup phase; thread-safe.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hil::config {

/// The directories searched, in order (those that exist, each once).
[[nodiscard]] std::vector<std::filesystem::path> rig_search_path();

/// The rig file; throws std::runtime_error listing the places looked and the rigs there.
[[nodiscard]] std::filesystem::path locate_rig(std::string_view rig);

/// The scenario file (a path, or <dir>/scenarios/NAME.pbtxt); throws like locate_rig. A
/// relative path is taken from `relative_to`'s directory when given (a rig file's
/// default_scenario), else from the working directory.
[[nodiscard]] std::filesystem::path locate_scenario(std::string_view scenario,
                                                    const std::filesystem::path& relative_to = {});

/// The rig's short name for run directories: the NAME, or the file's directory name.
[[nodiscard]] std::string rig_name(std::string_view rig);

}  // namespace hil::config
