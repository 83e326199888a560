#pragma once
// What `hilsim run` reports: the progress line, the summary at the end, manifest.json and
// timing.json of the run directory. Pure formatting over a RunReport; setup phase.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "config/rig/loader.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/rt_setup.hpp"
#include "rt_core/stats/timing_stats.hpp"
#include "runtime/diag/diag_tester.hpp"
#include "runtime/record/recording.hpp"

namespace hil::ecu::diag {
class EcuDiagnostics;
}  // namespace hil::ecu::diag
#include "runtime/rig.hpp"
#include "runtime/scenario/scenario_judge.hpp"
#include "tools/session/loop/speed.hpp"

namespace hil::session {

struct RunReport {
  std::string rig;
  std::filesystem::path rig_file;
  std::string scenario;  ///< "" when none
  std::string ecu;       ///< "virtual (in process)", the --can URI, or "none"
  const config::RigSpec* settings = nullptr;
  runtime::Rig* runtime = nullptr;
  std::int64_t ticks_wanted = -1;  ///< −1: until stopped
  Speed speed;                     ///< the clock it ran on
  std::optional<std::filesystem::path> run_dir;
  std::string config_hash;
  std::int64_t start_epoch_ns = 0;
  rt::RtStatus status;
  rt::RunResult result;
  rt::TimingSnapshot stats;
  std::chrono::steady_clock::duration wall{};
  bool interrupted = false;
  std::string ending = "running";  ///< describe_ending() once it ended
  std::string console_url;         ///< "" when the run has no console
  std::optional<runtime::RecordingCounters> recording;
  std::string faults;       ///< the fault engine's report (runtime::format_faults), "" none
  std::string verdict;      ///< the scenario's criteria: "" none, else "passed …"/"FAILED …"
  std::string diagnostics;  ///< the built-in ECU's DTCs at the end (describe_dtcs), "" none
  std::string tester;       ///< what the rig's UDS tester did (describe_tester), "" none
  bool failed = false;
  /// The gates one by one (manifest.json "scenario_gates"), when the run had a scenario;
  /// `whole_scenario` false when it ended before the scenario did (gates not reached undecided).
  std::optional<runtime::ScenarioVerdict> gates;
  bool whole_scenario = true;
};

/// The ECU's DTCs that left their initial status, and the requests it answered: "C12300
/// wheel_speeds_lost 0x2E (testFailedThisOperationCycle, pendingDTC, …); 2 UDS requests".
[[nodiscard]] std::string describe_dtcs(const ecu::diag::EcuDiagnostics& diagnostics);
/// The rig's UDS tester: "60 DTC reads (19 02 FF every 100 ms), 3 requests answered".
[[nodiscard]] std::string describe_tester(const runtime::DiagTester& tester);

/// "sim 12.3 s  RTF 1.00  overruns 0  wake p99 45 us  can rx 615 tx 1230  timeouts 0".
[[nodiscard]] std::string progress_line(const RunReport& r, const rt::TimingSnapshot& s,
                                        std::chrono::steady_clock::duration wall);

/// The summary printed at the end, several lines.
[[nodiscard]] std::string run_summary(const RunReport& r);
/// The shared-memory bus's lines of the summary, one per region ("" without a bus).
[[nodiscard]] std::string bus_summary(runtime::Rig& rig);

/// manifest.json: version, git revision, rig, config hash, seed, period, start, host,
/// real-time, how it ended, recording counters.
[[nodiscard]] nlohmann::json manifest_json(const RunReport& r);

/// timing.json: the keys of `hilsim timing --json`.
[[nodiscard]] nlohmann::json timing_json(const RunReport& r);

}  // namespace hil::session
