// `hilsim replay LOG --rig NAME`: a CAN log from a real vehicle (candump, ASC or BLF) replayed into
// a rig. Each frame applies at the tick its time since the log's first frame falls into;
// nothing is compared; the outputs are recorded in a run directory for inspection. The loop
// is the run harness's executive with the rig's tick, as fast as --speed says.

#include <fmt/format.h>

#include <chrono>

#include "config/rig_locator.hpp"
#include "io/can/transport/replay_transport.hpp"
#include "runtime/record/recording.hpp"
#include "runtime/rig.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/console_feed.hpp"
#include "tools/session/harness.hpp"
#include "tools/session/replay/replay_compare.hpp"
#include "tools/session/run/run_directory.hpp"

namespace hil::session {

int replay_external_log(const ReplayOptions& o) {
  const std::filesystem::path rig_file = config::locate_rig(*o.rig);
  const config::LoadResult loaded = config::load_rig_config(rig_file);
  if (!loaded.ok()) {
    print_config_errors(loaded.errors, rig_file.string());
    return 2;
  }
  const config::RigSettings& settings = *loaded.settings;
  const RunRecord run{.period_ns = settings.executive.period, .rig = config::rig_name(*o.rig)};
  CanRecording log;
  try {
    log = read_external_log(o.source, run.period_ns, o.lenient);
  } catch (const std::runtime_error& e) {  // the first bad line or object, or unreadable
    fmt::print(stderr, "{}\n{}: not replayed; --lenient skips malformed lines and objects\n",
               e.what(), o.source);
    return 2;
  }
  for (const std::string& bad : log.bad_lines) fmt::print(stderr, "{} (skipped)\n", bad);
  if (log.frames == 0) {
    fmt::print(stderr, "{}: no frames to replay\n", o.source);
    return 2;
  }
  // Frames of an interface named like a bus go to that bus; all others to the first bus
  std::vector<io::can::TickFrame> unmatched;
  for (const auto& [iface, frames] : log.received) {
    const std::string& name = iface;  // a lambda cannot capture a structured binding (C++17)
    const bool is_bus = std::any_of(settings.can.begin(), settings.can.end(),
                                    [&](const auto& bus) { return bus.name == name; });
    if (!is_bus) unmatched.insert(unmatched.end(), frames.begin(), frames.end());
  }
  std::stable_sort(unmatched.begin(), unmatched.end(),
                   [](const auto& a, const auto& b) { return a.tick < b.tick; });
  runtime::Rig rig(settings,
                   {.transport_for_bus =
                        [&](std::size_t bus, const std::string& name) {
                          const auto it = log.received.find(name);
                          std::vector<io::can::TickFrame> mine =
                              it != log.received.end() ? it->second
                              : bus == 0               ? unmatched
                                                       : std::vector<io::can::TickFrame>{};
                          return std::make_unique<io::can::ReplayTransport>(
                              "replay:" + name, std::move(mine), nullptr);
                        },
                    .live_bus = false});  // a CAN log has no co-simulator: bus inputs time out
  const auto start = std::chrono::system_clock::now();
  const std::filesystem::path dir = make_run_directory(
      o.record_dir ? std::optional<std::filesystem::path>(*o.record_dir) : std::nullopt, "runs",
      run.rig + "-replay", start);
  (void)save_rig(settings, dir, rig);
  const std::int64_t epoch_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
  runtime::Recording recording(rig, {.dir = dir,
                                     .start_epoch_ns = epoch_ns,
                                     .rig_name = run.rig,
                                     .lossless = true,
                                     .settings = settings.recording});
  runtime::TickPlan plan;
  rig.add_stages(plan);
  plan.add(runtime::Slot::record, "record", recording);
  Harness harness(settings.executive, std::move(plan),
                  {.speed = o.speed,
                   .quiet = o.quiet,
                   .open_loop = true,
                   .console = o.console,
                   .console_feed = console_feed(rig, {.rig = run.rig,
                                                      .run_id = dir.filename().string(),
                                                      .speed = o.speed,
                                                      .start_epoch_ns = epoch_ns,
                                                      .recording = &recording})});
  const std::int64_t last = o.until ? *rt::parse_duration(*o.until) / run.period_ns : log.last_tick;
  (void)harness.run_until(last + 1);
  harness.finish("replayed");
  recording.stop();
  const runtime::RecordingCounters counters = recording.counters();
  write_json(dir, "manifest.json",
             {{"hilsim_version", hilsim_version()},
              {"git_revision", git_revision()},
              {"rig", run.rig},
              {"replayed_log", o.source},
              {"period_ns", run.period_ns},
              {"start_epoch_ns", epoch_ns},
              {"ended", "completed"},
              {"ticks", last + 1},
              {"recording",
               {{"telemetry_samples", counters.telemetry.samples_recorded},
                {"can_frames", counters.can_log.frames_written}}}});
  fmt::print("replayed {} frames of {} into {} over {} ticks ({:.3f} s); outputs in {}\n",
             log.frames, o.source, run.rig, last + 1,
             static_cast<double>((last + 1) * run.period_ns) * 1e-9, dir.string());
  return 0;
}

}  // namespace hil::session
