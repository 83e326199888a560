#pragma once
// Inside config/: a rig layer that is part of a file holding more — a scenario's `rig` block
// (config/scenario/scenario.proto) — loaded on top of a rig's files.

#include <filesystem>
#include <span>

#include "config/rig.pb.h"
#include "config/rig/loader.hpp"
#include "config/text/source_map.hpp"

namespace hil::config {

/// The block, and the file's parsed layer with the block's path (errors point into it).
struct EmbeddedRigLayer {
  const RigConfig* config = nullptr;
  SourceLayer source;
};

/// load_rig_config(base, overlays), then the `embedded` layers applied on top, in order.
/// Thread-safe; the embedded layers must outlive the call.
[[nodiscard]] LoadResult load_rig_config(const std::filesystem::path& base,
                                         std::span<const std::filesystem::path> overlays,
                                         std::span<const EmbeddedRigLayer> embedded,
                                         const Machine& machine = this_machine());

}  // namespace hil::config
