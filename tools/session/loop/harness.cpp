#include "tools/session/loop/harness.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>

#include "io/bus/endpoint.hpp"
#include "rt_core/rt_thread.hpp"
#include "tools/session/loop/sd_notify.hpp"

namespace hil::session {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int /*signal*/) { g_interrupted = 1; }

constexpr std::size_t kLogLinesPerReport = 3;

rt::ExecutiveSpec for_run(rt::ExecutiveSpec config, const HarnessSpec& options) {
  if (!options.speed.realtime() || options.open_loop) config.overrun.kind = rt::OverrunKind::skip;
  config.task_timing_stride = options.speed.task_timing_stride();
  return config;
}

runtime::TickPlan with_helpers(runtime::TickPlan plan, rt::Stage* console_tap,
                               runtime::TickCounterStage& counter) {
  // The channel snapshot and the console's stream: nobody reads either without a console
  if (console_tap != nullptr) plan.add(runtime::Slot::publish, "console", *console_tap);
  // Last of the write phase: the count covers complete ticks only
  plan.add(runtime::Slot::tick_counter, "tick_counter", counter);
  return plan;
}

/// The console of a run, or nullptr when it is off or cannot listen (never a failed run).
std::unique_ptr<io::console::ConsoleServer> open_console(const HarnessSpec& o) {
  if (!o.console.enabled || o.console_feed.table == nullptr) return nullptr;
  try {
    auto console = std::make_unique<io::console::ConsoleServer>(o.console, o.console_feed,
                                                                io::bus::runtime_directory());
    fmt::print(stderr, "console: {}\n", console->url());
    fmt::print(stderr, "console: operator token in {} (open {}?token={})\n",
               console->token_file().string(), console->url(), console->token());
    return console;
  } catch (const std::exception& e) {
    fmt::print(stderr,
               "console: {}; the run goes on without a console (--console 0 picks a free "
               "port, --console off turns it off)\n",
               e.what());
    return nullptr;
  }
}

}  // namespace

bool run_watched(const rt::RtSpec& rt, rt::RtStatus& status, const std::function<void()>& body,
                 const LoopWatch& watch) {
  // The loop thread says when it is done (after the body: its results are visible); the
  // watcher wakes then, not at its next period
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  g_interrupted = 0;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  {
    rt::RtThread thread(rt, status, [&] {
      body();
      const std::scoped_lock lock(mutex);  // once, after the loop: not on the RT path
      done = true;
      finished.notify_one();
    });
    for (const std::string& w : status.warnings) spdlog::warn("{}", w);
    if (watch.started) watch.started();
    std::unique_lock lock(mutex);
    while (!finished.wait_for(lock, watch.period, [&] { return done; })) {
      lock.unlock();
      if (g_interrupted != 0 || (watch.stop_when && watch.stop_when())) watch.stop();
      if (watch.poll) watch.poll();
      lock.lock();
    }
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  return g_interrupted != 0;
}

Harness::Harness(rt::ExecutiveSpec config, runtime::TickPlan plan, HarnessSpec options)
    : options_(std::move(options)),
      console_(open_console(options_)),
      clock_(options_.paused ? std::make_unique<rt::LockStepClock>(true)
                             : options_.speed.make_clock()),
      lock_step_(dynamic_cast<rt::LockStepClock*>(clock_.get())),
      console_tap_(console_ ? std::make_unique<ConsoleTapStage>(console_->tap()) : nullptr),
      executive_(for_run(config, options_),
                 with_helpers(std::move(plan), console_tap_.get(), tick_counter_).entries(),
                 *clock_,
                 options_.speed.realtime() ? &log_ : nullptr) {  // a slow tick is no
                                                                 // news in SIL
  if (console_) {
    console_->start(executive_, [this] {
      console_stop_.store(true, std::memory_order_relaxed);
      executive_.request_stop();
      if (lock_step_ != nullptr) lock_step_->resume();  // a paused loop must get to the stop
    });
  }
  jobs_ = std::make_unique<IoJobs>(console_ ? &console_->context() : nullptr);
}

Harness::~Harness() {
  jobs_.reset();  // its timers may be on the console's context
  console_.reset();
}

void Harness::finish(const std::string& ending) {
  if (console_) console_->ended(ending, executive_.ticks_run());
}

std::string describe_ending(const RunOutcome& o) {
  if (o.result.reason == rt::StopReason::overrun_limit) return "stopped by the overrun policy";
  if (!o.stopped_by.empty()) return fmt::format("stopped by the {}", o.stopped_by);
  return o.result.reason == rt::StopReason::tick_limit ? "completed" : "stopped";
}

rt::RtSpec Harness::thread_options() const noexcept {
  if (options_.speed.realtime()) return options_.rt;
  return {.priority = 0, .lock_memory = false, .hold_dma_latency = false};
}

RunOutcome Harness::run(std::int64_t max_ticks, const RunHooks& hooks) {
  RunOutcome out;
  const rt::RtSpec rt_options = thread_options();
  const rt::Nanoseconds period = executive_.config().period;
  const auto started = std::chrono::steady_clock::now();
  if (options_.notify && !notifier_) {
    notifier_.emplace(tick_counter_.ticks(), [this, started, period] {
      const rt::TimingSnapshot s = executive_.stats().snapshot();
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const double sim = static_cast<double>(s.ticks * period) * 1e-9;
      return format_run_status(s.ticks, wall > 0 ? sim / wall : 0.0, s.overruns);
    });
    notifier_->status(fmt::format("starting {}", options_.name));
  }
  std::optional<rt::RtProcessGuard> process;  // memory locking, DMA latency: real time only
  if (options_.speed.realtime()) process.emplace(rt_options, out.status);
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto report_every = std::chrono::seconds(tty ? 1 : 10);
  auto last_report = std::chrono::steady_clock::now();
  const auto loop_start = std::chrono::steady_clock::now();
  // The loop's real-time events (overrun warnings) go to stderr; with -q only its errors do
  // (the summary still counts the overruns)
  std::shared_ptr<spdlog::logger> rt_logger = spdlog::default_logger();
  if (options_.quiet) {
    rt_logger = rt_logger->clone("rt");
    rt_logger->set_level(spdlog::level::err);
  }
  const LoopWatch watch{
      .stop =
          [&] {
            executive_.request_stop();
            if (lock_step_ != nullptr) lock_step_->resume();
          },
      .started =
          [&] {
            if (console_) {
              console_->set_realtime(options_.speed.realtime() && out.status.realtime(),
                                     out.status.summary());
            }
            if (hooks.started) hooks.started(out.status);
            if (notifier_) {
              jobs_->every(
                  std::chrono::duration_cast<std::chrono::milliseconds>(notifier_->poll_period()),
                  [this] { notifier_->poll(); });
            }
          },
      .poll =
          [&] {
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report < report_every) return;
            last_report = now;
            log_.drain(*rt_logger, kLogLinesPerReport);
            if (options_.quiet || !hooks.progress) return;
            const std::string line =
                hooks.progress(executive_.stats().snapshot(), now - loop_start);
            if (!line.empty()) fmt::print(stderr, "{}\n", line);
          },
      .stop_when = hooks.stop_when};
  out.interrupted = run_watched(
      rt_options, out.status,
      [&] {
        out.result = executive_.run(max_ticks);
        out.wall = std::chrono::steady_clock::now() - loop_start;  // the loop's own time
      },
      watch);
  if (notifier_) notifier_->stopping();  // its job sends nothing more
  log_.drain(*rt_logger, 10);
  out.stats = executive_.stats().snapshot();
  if (console_stop_.load(std::memory_order_relaxed)) {
    out.stopped_by = "operator (console)";
  } else if (out.interrupted) {
    out.stopped_by = "operator";
  }
  if (console_) console_->ended(describe_ending(out), out.result.ticks);
  return out;
}

}  // namespace hil::session
