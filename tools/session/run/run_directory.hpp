#pragma once
// The run directory of `hilsim run` (DESIGN.md §7), written and read back here:
//   manifest.json   version, git revision, rig, config hash, seed, period, start, host,
//                   real-time or not, how it ended, recording counters
//   rig.pbtxt       the rig as it ran (overlays applied), with copies of its DBC and DEM
//                   files next to it: `hilsim replay` rebuilds the rig from here alone
//   scenario.pbtxt  the scenario, when there was one
//   can.log, telemetry.mcap, timing.json   written by the recorders and at the end
// Setup phase (files, allocation, exceptions); thread-safe functions over their arguments.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "config/rig/loader.hpp"
#include "io/can/transport/replay_transport.hpp"

namespace hil::runtime {
class Rig;
}  // namespace hil::runtime

namespace hil::session {

/// `explicit_dir` (--record DIR) as given, else <runs_root>/<rig>-<UTC YYYYmmddTHHMMSSZ>
/// (with -2, -3 … if taken). Creates it; throws std::runtime_error naming the path.
[[nodiscard]] std::filesystem::path make_run_directory(
    const std::optional<std::filesystem::path>& explicit_dir,
    const std::filesystem::path& runs_root, const std::string& rig,
    std::chrono::system_clock::time_point start);

/// Writes rig.pbtxt (the merged configuration) and copies the files it names next to it,
/// pointing the copy at them. Returns the text written followed by the copied files' bytes
/// (its hash is the config hash: a changed DBC changes it). Each FMU's `thread` is written as
/// `runtime` steps it (AUTO resolved by its probe), so the run's replay steps it the same way.
std::string save_rig(const config::RigSpec& settings, const std::filesystem::path& dir,
                     const runtime::Rig& runtime);

/// Copies the scenario file into `dir` as scenario.pbtxt (what `hilsim replay` runs the
/// events from); returns its text. Throws std::runtime_error naming the file.
std::string copy_scenario(const std::filesystem::path& scenario, const std::filesystem::path& dir);

/// FNV-1a 64 of `text` as 16 hex digits (stable across builds and machines).
[[nodiscard]] std::string config_hash(const std::string& text);

/// Writes `text` to `file` atomically: to a temporary of this process's own (several processes
/// may write the same file: sweep array tasks), fdatasync, rename over it.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

/// write_file_atomically(dir/name, the JSON with 2-space indents and a final newline).
void write_json(const std::filesystem::path& dir, const std::string& name,
                const nlohmann::json& json);

// ---- reading it back (`hilsim replay`) ----

/// What manifest.json says the replay needs.
struct RunRecord {
  std::int64_t period_ns = 0;
  std::int64_t start_epoch_ns = 0;
  std::string rig;
  std::string scenario;
  bool completed = true;  ///< false when the run died (the manifest still says "running")
  /// false when the recording stopped before the run (disk full, I/O error): what it holds
  /// is a prefix, as for a run that died
  bool recording_complete = true;
  /// The vehicle's arithmetic ("vehicle_math": models::kFourLanesMath or kPairsMath); empty
  /// for a run without a vehicle or recorded before it was written
  std::string vehicle_math;
};

/// Throws std::runtime_error naming the file and the missing key.
[[nodiscard]] RunRecord read_run_record(const std::filesystem::path& dir);

/// can.log by interface: frames received (" R", or no suffix) and sent (" T"), with the tick
/// each belongs to.
struct CanRecording {
  std::map<std::string, std::vector<io::can::TickFrame>> received;
  std::map<std::string, std::vector<io::can::TickFrame>> sent;
  std::int64_t last_tick = -1;
  std::size_t frames = 0;
  std::vector<std::string> bad_lines;  ///< "can.log:LINE:COLUMN: what"
  std::string cut;  ///< the last line, cut short (no newline): where and why, "" if whole
};

/// A run's can.log: tick = round((time − start_epoch)/period). A run without CAN has none:
/// an empty recording.
[[nodiscard]] CanRecording read_can_recording(const std::filesystem::path& file,
                                              const RunRecord& run);

/// A log from elsewhere (candump, Vector ASC or BLF: io/can/trace/trace_loader.hpp): every
/// frame received, at the tick its time since the log's first frame falls into. Without
/// `lenient` the first bad line (or BLF object) throws std::runtime_error naming it; with it
/// bad ones are skipped and listed in bad_lines (the first few; `frames` counts the rest).
[[nodiscard]] CanRecording read_external_log(const std::filesystem::path& file,
                                             std::int64_t period_ns, bool lenient);

/// The tick of the last sample in a telemetry file (−1 if none).
[[nodiscard]] std::int64_t last_sample_tick(const std::filesystem::path& telemetry);

/// The build's version and git revision ("0.1.0", "a1b2c3d" or "unknown").
[[nodiscard]] std::string hilsim_version();
[[nodiscard]] std::string git_revision();
/// What `hilsim --version` prints: "hilsim 0.1.0 (git a1b2c3d4e5f6, Release build)".
[[nodiscard]] std::string version_line();

}  // namespace hil::session
