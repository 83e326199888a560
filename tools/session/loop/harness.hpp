#pragma once
// The run harness (docs/architecture.md "The harness"): the one place a rig runs in a loop.
// It owns the clock (tools/session/loop/speed.hpp), the executive over the tick's declared slots
// (runtime/tick_plan.hpp), the RT setup (process and thread, only at real-time speed), stop
// requests (SIGINT/SIGTERM, a hook), the non-RT helpers around the loop (RT log drain,
// progress, systemd's READY/STATUS/WATCHDOG through the tick counter) and the outcome the
// end-of-run report is made of. `hilsim run`, `timing`, `ecu` and `replay` run on Harness;
// `hilsim play`, whose loop is the trace player's own, on its lower half run_watched().
//
// Thread-safety: a Harness is set up and run from one thread; run() runs the executive on
// an RT thread and returns when it ended. Hooks run on the calling thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/console/console_feed.hpp"
#include "io/console/console_server.hpp"
#include "io/console/console_spec.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/lock_step_clock.hpp"
#include "rt_core/rt_log.hpp"
#include "rt_core/rt_setup.hpp"
#include "rt_core/rt_spec.hpp"
#include "rt_core/stats/timing_stats.hpp"
#include "runtime/tick_counter_stage.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/session/loop/io_jobs.hpp"
#include "tools/session/loop/sd_notify.hpp"
#include "tools/session/loop/speed.hpp"

namespace hil::session {

/// How the calling thread watches a loop that runs on another.
struct LoopWatch {
  std::function<void()> stop;       ///< ends the loop (signals, stop_when)
  std::function<void()> started;    ///< optional: once the loop thread's RT setup is done
  std::function<void()> poll;       ///< every `period` while the loop runs
  std::function<bool()> stop_when;  ///< optional: true ends the loop
  std::chrono::milliseconds period{50};
};

/// Runs `body` on a thread set up with `rt` (its part of the setup merged into `status`)
/// while the calling thread polls; SIGINT and SIGTERM call watch.stop() (the default
/// handlers are back on return). Returns whether a signal asked for the stop.
[[nodiscard]] bool run_watched(const rt::RtSpec& rt, rt::RtStatus& status,
                               const std::function<void()>& body, const LoopWatch& watch);

struct HarnessSpec {
  rt::RtSpec rt;  ///< the rig's RT setup: applied at real-time speed only
  Speed speed;
  bool quiet = false;   ///< no progress
  bool notify = false;  ///< systemd's Type=notify protocol (a no-op outside systemd)
  /// Replay: the loop reproduces a recording and nobody waits on it, so an overrun is never
  /// a reason to stop it, whatever the speed.
  bool open_loop = false;
  std::string name;  ///< what STATUS= says is starting ("rig ravon")
  /// The operator console (docs/console.md): where it listens (off: none) and what it shows.
  io::console::ConsoleSpec console{.enabled = false};
  io::console::ConsoleFeed console_feed;
  /// --paused (with --speed max): the loop runs only as far as the console or the API steps it.
  bool paused = false;
};

/// What a run hands the harness; every member is optional.
struct RunHooks {
  /// Once the RT setup is known (e.g. the manifest: a killed run keeps it).
  std::function<void(const rt::RtStatus&)> started;
  /// A progress line, once a second on a terminal, every 10 s otherwise ("" prints nothing).
  std::function<std::string(const rt::TimingSnapshot&, std::chrono::steady_clock::duration)>
      progress;
  /// Polled every 50 ms: true ends the run (e.g. `hilsim ecu` at the scenario's end).
  std::function<bool()> stop_when;
};

struct RunOutcome {
  rt::RunResult result;
  rt::TimingSnapshot stats;
  rt::RtStatus status;
  std::chrono::steady_clock::duration wall{};
  bool interrupted = false;  ///< SIGINT/SIGTERM
  /// Who ended the run before its end: "" nobody, "operator" (SIGINT/SIGTERM),
  /// "operator (console)".
  std::string stopped_by;
};

/// How a run ended, for its summary and manifest: "completed", "stopped by the operator
/// (console)", "stopped by the overrun policy", …
[[nodiscard]] std::string describe_ending(const RunOutcome& outcome);

class Harness {
 public:
  /// Setup phase: the console (when options.console says so: its URL is the first line on
  /// stderr; one that cannot listen is a warning), the clock of `options.speed`, the
  /// executive over `plan` plus the console's tap and the tick counter. Below real-time speed, and
  /// open loop, the overrun policy is `skip` (an overrun there is a tick slower than its period,
  /// reported, never a reason to stop). Throws std::invalid_argument for a config the executive
  /// refuses.
  Harness(rt::ExecutiveSpec config, runtime::TickPlan plan, HarnessSpec options);
  ~Harness();  // the console first: it reads the executive
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  /// Runs until `max_ticks` ticks ran in all (negative: until stopped) on an RT thread (a
  /// normal thread below real-time speed), watching it from the calling thread.
  RunOutcome run(std::int64_t max_ticks, const RunHooks& hooks = {});

  /// Runs on the calling thread until `ticks` ticks ran in all: replay drives the loop in
  /// segments, as its recording says. No signals, no RT setup, no helpers.
  rt::RunResult run_until(std::int64_t ticks) noexcept { return executive_.run(ticks); }

  [[nodiscard]] rt::Executive& executive() noexcept { return executive_; }
  /// After run_until(): tells the console how the run ended ("replayed"); run() does it
  /// itself.
  void finish(const std::string& ending);
  /// The console, or nullptr (off, or it could not listen).
  [[nodiscard]] io::console::ConsoleServer* console() noexcept { return console_.get(); }
  /// The gate of a paused run (HarnessSpec::paused), or nullptr.
  [[nodiscard]] rt::LockStepClock* lock_step() noexcept { return lock_step_; }
  /// The run's periodic non-RT work (io_jobs.hpp), on the console's thread when there is one.
  [[nodiscard]] IoJobs& jobs() noexcept { return *jobs_; }

 private:
  /// The RT options the loop thread gets: the rig's at real-time speed, a normal thread
  /// without memory locking otherwise.
  [[nodiscard]] rt::RtSpec thread_options() const noexcept;

  HarnessSpec options_;
  std::unique_ptr<io::console::ConsoleServer> console_;  // before the plan: its tap is in it
  std::atomic<bool> console_stop_{false};
  std::unique_ptr<rt::Clock> clock_;
  rt::LockStepClock* lock_step_ = nullptr;  ///< clock_ when paused
  using ConsoleTapStage = rt::MethodStage<&io::console::ConsoleTap::publish>;
  std::unique_ptr<ConsoleTapStage> console_tap_;  ///< with a console
  runtime::TickCounterStage tick_counter_;
  rt::RtLog log_{64};
  rt::Executive executive_;
  std::unique_ptr<IoJobs> jobs_;         ///< gone before the console (it may share its thread)
  std::optional<RunNotifier> notifier_;  ///< systemd's, while and after run() (notify)
};

}  // namespace hil::session
