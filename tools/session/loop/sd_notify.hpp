#pragma once
// systemd's Type=notify protocol for a run (sd_notify(3), systemd.service(5)): READY=1 once
// the first tick ran, STATUS= lines, WATCHDOG=1 only while the RT loop makes progress, and
// STOPPING=1 when the run ends. Everything here runs on non-RT threads: the RT loop's only
// part is the tick counter it increments (runtime/tick_counter_stage.hpp). Started outside
// systemd (no NOTIFY_SOCKET in the environment), every call is a no-op.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace hil::session {

/// The service manager's notification socket as the environment names it when constructed:
/// NOTIFY_SOCKET (where datagrams go) and WATCHDOG_USEC/WATCHDOG_PID (whether this process
/// must feed the watchdog, read by libsystemd's sd_watchdog_enabled(3)). The environment is
/// left as it is. Thread-safety: every method may be called from any thread (one datagram
/// per send, no shared mutable state besides a relaxed "warned" flag).
class SdNotifier {
 public:
  SdNotifier();

  /// True when started by a service manager that listens (NOTIFY_SOCKET set).
  [[nodiscard]] bool connected() const noexcept { return connected_; }
  /// WatchdogSec= of the unit, zero when the watchdog is off or meant for another process.
  [[nodiscard]] std::chrono::microseconds watchdog_timeout() const noexcept {
    return watchdog_timeout_;
  }
  /// Sends `state` ("VAR=value" lines) as one datagram. Returns false when not connected or
  /// the send failed; the first failure logs one warning, later ones are silent. Blocks while
  /// the manager's socket queue is full (PID 1 not reading): never call it from the RT thread.
  bool send(const std::string& state) const;

 private:
  bool connected_ = false;
  std::chrono::microseconds watchdog_timeout_{0};
  mutable std::atomic<bool> warned_{false};
};

/// "tick 123456, RTF 1.00, 0 overruns": the STATUS= line of a run.
[[nodiscard]] std::string format_run_status(std::int64_t ticks, double real_time_factor,
                                            std::uint64_t overruns);

/// Tells systemd how a run is doing. Feed it the RT loop's count of executed ticks and a
/// function that describes the run in one line, then call poll() every ~100 ms from a non-RT
/// thread (a run does it as one of its I/O jobs: io_jobs.hpp):
///  - READY=1, once, on the first poll that sees the counter above zero (the first tick ran);
///  - STATUS=<status_line()> right after READY=1, then every `status_period`;
///  - WATCHDOG=1 every half of WATCHDOG_USEC, but only if the counter advanced since the
///    previous WATCHDOG=1 (or since READY=1): a stalled loop stops the feeding and systemd
///    kills and restarts the service (WatchdogSec=, Restart=on-failure);
///  - STOPPING=1 from stopping(), after which poll() sends nothing more.
/// The counter is read with memory_order_relaxed: only its own value matters (a single
/// atomic's modification order is total, so a later load never sees an older count), and
/// no other data is read on the strength of it — status_line() takes its figures through
/// the executive's seqlock snapshot, which orders itself.
/// Thread-safety: every method may be called from any non-RT thread; a mutex serialises
/// them. status_line() is called with that mutex held, on the thread that polls.
class RunNotifier {
 public:
  using Clock = std::chrono::steady_clock;
  using StatusLine = std::function<std::string()>;

  /// `ticks` must outlive the notifier. Reads the environment (see SdNotifier).
  RunNotifier(const std::atomic<std::int64_t>& ticks, StatusLine status_line,
              std::chrono::milliseconds status_period = std::chrono::seconds(1));

  /// The periodic hook. `now` is for tests; callers use poll().
  void poll(Clock::time_point now);
  void poll() { poll(Clock::now()); }

  /// STATUS=<line> now, whatever the state (e.g. "loading rig bench" before the first tick).
  void status(std::string_view line);

  /// STOPPING=1 (once); ends READY/STATUS/WATCHDOG from poll().
  void stopping();

  /// Half of WATCHDOG_USEC: how often WATCHDOG=1 goes out. Zero when the watchdog is off.
  [[nodiscard]] std::chrono::microseconds watchdog_interval() const noexcept;
  /// How often to call poll(): 100 ms, or less when the watchdog interval asks for it.
  [[nodiscard]] std::chrono::microseconds poll_period() const noexcept;
  [[nodiscard]] bool connected() const noexcept { return notifier_.connected(); }

 private:
  void send_status();

  SdNotifier notifier_;
  const std::atomic<std::int64_t>& ticks_;
  StatusLine status_line_;
  std::chrono::milliseconds status_period_;

  std::mutex mutex_;  // guards everything below
  bool ready_ = false;
  bool stopping_ = false;
  std::int64_t ticks_at_last_feed_ = 0;
  Clock::time_point last_feed_{};
  Clock::time_point last_status_{};
};

}  // namespace hil::session
