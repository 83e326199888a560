#include "tools/session/run/run_session.hpp"

#include "io/record/mcap/chunk_compression.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stop_token>
#include <thread>

#include "config/scenario/scenario_settings.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/rt_log.hpp"
#include "rt_core/rt_setup.hpp"
#include "runtime/record/recording.hpp"
#include "runtime/rig.hpp"
#include "tools/session/console_feed.hpp"
#include "tools/session/harness.hpp"
#include "tools/session/rig_setup.hpp"
#include "tools/session/run/run_directory.hpp"
#include "tools/session/run/run_report.hpp"
#include "tools/session/scenario_run.hpp"
#include "tools/session/timing/timing_report.hpp"

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

/// A transport that is not virtual: has a peer that runs in real time.
std::optional<std::string> real_transport(const RunOptions& o, const config::RigSettings& s) {
  if (o.selection.can_uri) return *o.selection.can_uri;
  for (const io::can::CanBusSpec& bus : s.can) {
    if (!bus.uri.starts_with("virtual:")) return bus.uri;
  }
  return std::nullopt;
}

}  // namespace

int run_rig(const RunOptions& o) {
  const auto wall_start = std::chrono::system_clock::now();
  const std::unique_ptr<RigSetup> setup = set_up_rig(o.selection);
  if (!setup) return 1;
  const config::RigSettings& settings = setup->settings;
  if (!o.speed.realtime()) {
    if (const std::optional<std::string> uri = real_transport(o, settings)) {
      fmt::print(stderr,
                 "--speed {}: the CAN transport {} has a peer that runs in real time; only a "
                 "rig on virtual: transports runs at another speed (--speed realtime)\n",
                 o.speed.to_string(), *uri);
      return 1;
    }
  }
  RunReport report;
  report.rig = setup->rig;
  report.rig_file = setup->rig_file;
  if (setup->scenario_file) report.scenario = setup->scenario_file->stem().string();
  report.ecu = setup->ecu;
  report.settings = &settings;
  report.runtime = setup->runtime.get();
  report.speed = o.speed;
  runtime::Rig& rig = *setup->runtime;
  session::ScenarioRun* scenario_run = setup->scenario_run.get();
  runtime::TickPlan plan = setup->plan;
  // Commands from outside the loop (tests now; the console and API), applied at a tick
  runtime::CommandQueue commands(rig.table(), settings.can, *setup->faults);
  plan.add(runtime::Slot::commands, "commands", commands.stage());
  if (o.extra_tasks) o.extra_tasks(plan, rig);
  // An FMU on a worker thread: a loop paced by real time never waits for it (fmu_task.hpp)
  for (const auto& f : rig.fmus()) f->set_realtime(o.speed.realtime() && !o.paused);
  rt::RtOptions rt_options = settings.rt;
  if (o.no_rt) rt_options = {.priority = 0, .lock_memory = false, .hold_dma_latency = false};

  report.ticks_wanted = scenario_run ? scenario_run->ticks() : -1;
  if (o.duration) {
    report.ticks_wanted =
        std::max<std::int64_t>(1, *rt::parse_duration(*o.duration) / settings.executive.period);
  }

  // Recording: the run directory, then the recorders fed every tick
  const std::int64_t epoch_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall_start.time_since_epoch()).count();
  std::unique_ptr<runtime::Recording> recording;
  std::string compression;  // of the telemetry, for the line printed at the start
  if (!o.no_record) {
    report.run_dir = make_run_directory(
        o.record_dir ? std::optional<std::filesystem::path>(*o.record_dir) : std::nullopt,
        o.runs_dir, report.rig, wall_start);
    std::string saved = save_rig(settings, *report.run_dir, rig);
    if (setup->scenario_file) saved += copy_scenario(*setup->scenario_file, *report.run_dir);
    report.config_hash = config_hash(saved);
    report.start_epoch_ns = epoch_ns;
    config::RecordingSettings recording_settings = settings.recording;
    if (o.split_size_mb) {
      recording_settings.split_bytes = static_cast<std::uint64_t>(*o.split_size_mb * 1048576.0);
    }
    if (o.split_duration) {
      recording_settings.split_duration_s =
          static_cast<double>(*rt::parse_duration(*o.split_duration)) * 1e-9;
    }
    recording = std::make_unique<runtime::Recording>(
        rig, runtime::RecordingOptions{.dir = *report.run_dir,
                                       .start_epoch_ns = epoch_ns,
                                       .rig_name = report.rig,
                                       .lossless = !o.speed.realtime(),
                                       .settings = recording_settings});
    compression = io::record::mcap_name(recording_settings.compression);
    if (compression.empty()) compression = "uncompressed";
    plan.add(runtime::Slot::record, "record", *recording);
    setup->faults->set_event_sink(&recording->telemetry());
    commands.set_log(*report.run_dir / "commands.log");
  }
  const std::string run_id = report.run_dir ? report.run_dir->filename().string()
                                            : fmt::format("{}-{}", report.rig, epoch_ns);
  io::console::ConsoleFeed feed =
      console_feed(rig, {.rig = report.rig,
                         .run_id = run_id,
                         .speed = o.speed,
                         .start_epoch_ns = epoch_ns,
                         .scenario = setup->scenario ? &*setup->scenario : nullptr,
                         .recording = recording.get(),
                         .judge = scenario_run ? &scenario_run->judge() : nullptr,
                         .faults = setup->faults.get()});
  feed.submit = console_commands(commands);
  std::atomic<rt::LockStepClock*> gate{nullptr};  // the harness's, once it exists
  if (o.paused) {
    feed.lock_step = io::console::ConsoleFeed::LockStep{
        .step = [&gate](std::int64_t ticks, const double* watched,
                        rt::ChannelCondition condition) -> std::int64_t {
          rt::LockStepClock* g = gate.load();
          if (g == nullptr) return ticks;
          return watched != nullptr ? g->step_until(ticks, watched, condition) : g->step(ticks);
        },
        .pause =
            [&gate](bool pause) {
              if (rt::LockStepClock* g = gate.load()) pause ? g->pause() : g->resume();
            },
        .waiting_at = [&gate]() -> std::int64_t {
          rt::LockStepClock* g = gate.load();
          return g != nullptr && g->waiting() ? g->ticks_through() : -1;
        },
        .limit = [&gate]() -> std::int64_t {
          rt::LockStepClock* g = gate.load();
          return g != nullptr ? g->limit() : 0;
        }};
  }
  Harness harness(settings.executive, std::move(plan),
                  {.rt = rt_options,
                   .speed = o.speed,
                   .quiet = o.quiet,
                   .notify = true,
                   .name = fmt::format("rig {}", report.rig),
                   .console = o.console,
                   .console_feed = std::move(feed),
                   .paused = o.paused});
  gate.store(harness.lock_step());
  if (recording && !o.quiet) {  // after the console's lines: they come first on stderr
    const double per_hour = recording->estimated_bytes_per_hour();
    const auto free = static_cast<double>(recording->free_bytes());
    const auto size = [](double bytes) {
      return bytes >= 1e9 ? fmt::format("{:.1f} GB", bytes * 1e-9)
                          : fmt::format("{:.0f} MB", bytes * 1e-6);
    };
    fmt::print(stderr,
               "recording: {} — telemetry ~{} per simulated hour ({}), {} free there "
               "(~{:.1f} h)\n",
               report.run_dir->string(), size(per_hour), compression, size(free),
               free / std::max(per_hour, 1.0));
  }
  if (harness.console() != nullptr && report.run_dir) report.console_url = harness.console()->url();
  if (o.selection.can_uri) {
    fmt::print(stderr,
               "waiting for the ECU on {}: the vehicle is held in its safe state until "
               "its frames arrive\n",
               *o.selection.can_uri);
  }
  if (o.with_commands) o.with_commands(commands);
  // The applied commands go to commands.log as they come back from the loop, every 2 ms
  // (and to the console: its event log, the operator's ack)
  const auto take_applied = [&commands, &harness] {
    for (runtime::AppliedCommand& a : commands.take_applied()) {
      if (harness.console() != nullptr) {
        harness.console()->command_applied(a.id, a.tick, a.ok, std::move(a.line));
      }
    }
  };
  std::jthread command_pump([&take_applied](const std::stop_token& stop) {
    while (!stop.stop_requested()) {
      take_applied();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // an ack's latency
    }
  });
  const RunOutcome outcome =
      harness.run(report.ticks_wanted,
                  {.started =
                       [&](const rt::RtStatus& status) {
                         report.status = status;
                         // Written once the RT setup is known (real-time or not): a killed run
                         // keeps it
                         if (report.run_dir)
                           write_json(*report.run_dir, "manifest.json", manifest_json(report));
                       },
                   .progress =
                       [&](const rt::TimingSnapshot& s, std::chrono::steady_clock::duration wall) {
                         return progress_line(report, s, wall);
                       }});
  command_pump.request_stop();
  command_pump.join();
  take_applied();
  report.status = outcome.status;
  report.result = outcome.result;
  report.wall = outcome.wall;
  report.interrupted = outcome.interrupted;
  report.ending = describe_ending(outcome);
  report.stats = outcome.stats;
  report.faults = runtime::format_faults(setup->faults->report());
  if (scenario_run) {
    const bool whole = report.result.ticks >= scenario_run->ticks();
    report.gates = scenario_run->verdict();
    report.whole_scenario = whole;
    report.verdict = describe(*report.gates, whole, report.failed);
  }
  bool recording_incomplete = false;
  if (recording) {
    recording->stop();  // gives back the reserve: the manifest and timing.json fit
    report.recording = recording->counters();
    recording_incomplete = report.recording->ended() != "complete";
    // whatever the disk does, the summary is printed: a file that cannot be written is said
    for (const char* name : {"timing.json", "manifest.json"}) {
      try {
        write_json(
            *report.run_dir, name,
            std::string_view(name) == "timing.json" ? timing_json(report) : manifest_json(report));
      } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        recording_incomplete = true;
      }
    }
  }
  fmt::print("{}", run_summary(report));
  if (report.result.reason == rt::StopReason::overrun_limit) return 3;
  if (report.failed) return 4;
  return recording_incomplete ? 5 : 0;
}

}  // namespace hil::session
