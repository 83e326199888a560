#pragma once
// The rig file as loaded — overlays applied, the files it names made absolute — kept beside
// its settings (RigSpec::document) for what needs the file itself: `hilsim check --print`
// and a run directory's rig.pbtxt, which `hilsim replay` rebuilds the rig from. Its type is
// config's own: no Protobuf type crosses into runtime/ or tools/ (DESIGN.md §2).
// Thread-safety: functions of their arguments.

#include <filesystem>
#include <span>
#include <string>

#include "config/fmu_spec.hpp"

namespace hil::config {

struct RigSpec;

/// The rig in Protobuf text format, as `hilsim check --print` shows it.
[[nodiscard]] std::string rig_text(const RigSpec& rig);

/// Writes `dir`/rig.pbtxt — the rig as this run runs it — and copies the files it names (DBC,
/// DEM) next to it, pointing the copy at them; each FMU's `thread` is written as it steps
/// (`threads`, in the rig's order), so that its replay steps it the same way. Returns the text
/// written followed by the copied files' bytes (its hash is the run's config hash: a changed
/// DBC changes it). Throws std::runtime_error naming a file it cannot copy or write.
std::string write_run_rig(const RigSpec& settings, const std::filesystem::path& dir,
                          std::span<const FmuThread> threads);

}  // namespace hil::config
