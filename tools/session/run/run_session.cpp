#include "tools/session/run/run_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>

#include "tools/session/run/run_report.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::session {

namespace {

/// The verdict's first line and the gates one per line. A run cut short (--duration) judges
/// only the gates it reached.
std::string describe(const runtime::ScenarioVerdict& v, bool whole_run, bool& failed) {
  std::size_t reached = 0;
  failed = false;
  for (const runtime::GateResult& g : v.gates) {
    const bool counts = whole_run || g.reached;
    reached += counts ? 1 : 0;
    failed = failed || (counts && !g.passed);
  }
  std::string out =
      whole_run
          ? fmt::format("{} ({} gate{})", failed ? "FAILED" : "passed", v.gates.size(),
                        v.gates.size() == 1 ? "" : "s")
          : fmt::format("{} so far: the run ended at {:.1f} s, {} of {} gates reached",
                        failed ? "FAILED" : "passed", v.observed_until, reached, v.gates.size());
  for (const runtime::GateResult& g : v.gates) {
    const char* mark = !whole_run && !g.reached ? "  --" : g.passed ? "pass" : "FAIL";
    out += fmt::format("\n    [{}] {}: {}", mark, g.name, g.detail);
  }
  return out;
}

std::string size_text(double bytes) {
  return bytes >= 1e9 ? fmt::format("{:.1f} GB", bytes * 1e-9)
                      : fmt::format("{:.0f} MB", bytes * 1e-6);
}

/// What the user sees before the loop starts: where the recording goes, who the ECU is.
void print_start(const Run& run, const RunSpec& o) {
  if (run.recording && !o.quiet) {  // after the console's lines: they come first on stderr
    const double per_hour = run.recording->estimated_bytes_per_hour();
    const auto free = static_cast<double>(run.recording->free_bytes());
    fmt::print(stderr,
               "recording: {} — telemetry ~{} per simulated hour ({}), {} free there "
               "(~{:.1f} h)\n",
               run.run_dir->string(), size_text(per_hour), run.compression, size_text(free),
               free / std::max(per_hour, 1.0));
  }
  if (o.can_uri) {
    fmt::print(stderr,
               "waiting for the ECU on {}: the vehicle is held in its safe state until "
               "its frames arrive\n",
               *o.can_uri);
  }
}

/// Closes the recording and writes timing.json and manifest.json; false when the recording
/// is incomplete (it stopped early, or a file could not be written: said on stderr).
bool finish_recording(Run& run, RunReport& report) {
  run.recording->stop();  // gives back the reserve: the manifest and timing.json fit
  report.recording = run.recording->counters();
  bool complete = report.recording->ended() == "complete";
  // whatever the disk does, the summary is printed: a file that cannot be written is said
  for (const char* name : {"timing.json", "manifest.json"}) {
    try {
      write_json(
          *run.run_dir, name,
          std::string_view(name) == "timing.json" ? timing_json(report) : manifest_json(report));
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      complete = false;
    }
  }
  return complete;
}

}  // namespace

Recipe run_recipe(const RunSpec& o) {
  Recipe r{.rig = o.rig,
           .sources = LiveSources{.can_uri = o.can_uri, .joystick = o.joystick},
           .peer = o.ecu == "virtual" ? Peer::builtin_ecu : Peer::none,
           .console = o.console,
           .clock = {.speed = o.speed, .paused = o.paused, .no_rt = o.no_rt},
           .duration = o.duration,
           .quiet = o.quiet,
           .notify = true,
           .extra_stages = o.extra_stages,
           .with_commands = o.with_commands};
  if (!o.no_record) {
    r.record = RecordSink{
        .dir = o.record_dir ? std::optional<std::filesystem::path>(*o.record_dir) : std::nullopt,
        .runs_dir = o.runs_dir,
        .split_size_mb = o.split_size_mb,
        .split_duration = o.split_duration};
  }
  return r;
}

int run_rig(const RunSpec& o) {
  const std::unique_ptr<Run> run = RunBuilder(run_recipe(o)).build();
  if (!run) return 1;
  RunReport report{.rig = run->rig_name,
                   .rig_file = run->rig_file,
                   .scenario = run->scenario_file ? run->scenario_file->stem().string() : "",
                   .ecu = run->ecu_description,
                   .settings = &run->settings,
                   .runtime = run->rig.get(),
                   .ticks_wanted = run->ticks_wanted,
                   .speed = o.speed,
                   .run_dir = run->run_dir,
                   .config_hash = run->config_hash,
                   .start_epoch_ns = run->start_epoch_ns};
  if (run->harness->console() != nullptr && run->run_dir) {
    report.console_url = run->harness->console()->url();
  }
  print_start(*run, o);
  const RunOutcome outcome =
      run->run(report.ticks_wanted,
               {.started =
                    [&](const rt::RtStatus& status) {
                      report.status = status;
                      // Written once the RT setup is known (real-time or not): a killed run keeps
                      // it
                      if (report.run_dir)
                        write_json(*report.run_dir, "manifest.json", manifest_json(report));
                    },
                .progress =
                    [&](const rt::TimingSnapshot& s, std::chrono::steady_clock::duration wall) {
                      return progress_line(report, s, wall);
                    }});
  report.status = outcome.status;
  report.result = outcome.result;
  report.wall = outcome.wall;
  report.interrupted = outcome.interrupted;
  report.ending = describe_ending(outcome);
  report.stats = outcome.stats;
  report.faults = runtime::format_faults(run->faults->report());
  if (run->ecu && run->ecu->diagnostics() != nullptr) {
    report.diagnostics = describe_dtcs(*run->ecu->diagnostics());
  }
  if (run->rig && run->rig->diag_tester() != nullptr) {
    report.tester = describe_tester(*run->rig->diag_tester());
  }
  if (run->judge) {
    report.gates = run->judge->judge().verdict();
    report.whole_scenario = report.result.ticks >= run->scenario_ticks;
    report.verdict = describe(*report.gates, report.whole_scenario, report.failed);
  }
  const bool recording_complete = !run->recording || finish_recording(*run, report);
  fmt::print("{}", run_summary(report));
  if (const std::string driven = run->driver ? run->driver->summary() : ""; !driven.empty()) {
    fmt::print("{}\n", driven);
  }
  if (report.result.reason == rt::StopReason::overrun_limit) return 3;
  if (report.failed) return 4;
  return recording_complete ? 0 : 5;
}

}  // namespace hil::session
