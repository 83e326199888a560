#pragma once
// The run directory of `hilsim run` (issue 6; DESIGN.md §7):
//   manifest.json   version, git revision, rig, config hash, seed, period, start, host,
//                   real-time or not, how it ended, recording counters
//   rig.pbtxt       the rig as it ran (overlays applied), with copies of its DBC and DEM
//                   files next to it: `hilsim replay` rebuilds the rig from here alone
//   scenario.pbtxt  the scenario, when there was one
//   can.log, telemetry.mcap, timing.json   written by the recorders and at the end
// Setup phase (files, allocation, exceptions); thread-safe functions over their arguments.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "config/loader.hpp"

namespace hil::session {

/// `explicit_dir` (--record DIR) as given, else <runs_root>/<rig>-<UTC YYYYmmddTHHMMSSZ>
/// (with -2, -3 … if taken). Creates it; throws std::runtime_error naming the path.
[[nodiscard]] std::filesystem::path make_run_directory(
    const std::optional<std::filesystem::path>& explicit_dir,
    const std::filesystem::path& runs_root, const std::string& rig,
    std::chrono::system_clock::time_point start);

/// Writes rig.pbtxt (the merged configuration) and copies the files it names next to it,
/// pointing the copy at them. Returns the text written followed by the copied files' bytes
/// (its hash is the config hash: a changed DBC changes it).
std::string save_rig(const config::RigSettings& settings, const std::filesystem::path& dir);

/// Copies the scenario file into `dir` as scenario.pbtxt (what `hilsim replay` runs the
/// events from); returns its text. Throws std::runtime_error naming the file.
std::string copy_scenario(const std::filesystem::path& scenario, const std::filesystem::path& dir);

/// FNV-1a 64 of `text` as 16 hex digits (stable across builds and machines).
[[nodiscard]] std::string config_hash(const std::string& text);

/// Writes `json` to `dir/name` atomically (write to a temporary, fsync, rename).
void write_json(const std::filesystem::path& dir, const std::string& name,
                const nlohmann::json& json);

/// The build's version and git revision ("0.1.0", "a1b2c3d" or "unknown").
[[nodiscard]] std::string hilsim_version();
[[nodiscard]] std::string git_revision();

}  // namespace hil::session
