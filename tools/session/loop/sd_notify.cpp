#include "tools/session/loop/sd_notify.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace hil::session {

namespace {

constexpr std::chrono::microseconds kDefaultPollPeriod = std::chrono::milliseconds(100);

/// STATUS= takes one line: line breaks would start new assignments.
std::string one_line(std::string_view text) {
  std::string line(text);
  std::replace_if(
      line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return line;
}

}  // namespace

SdNotifier::SdNotifier() {
  const char* socket = std::getenv("NOTIFY_SOCKET");  // NOLINT(concurrency-mt-unsafe): setup
  connected_ = socket != nullptr && socket[0] != '\0';
  std::uint64_t usec = 0;
  // unset_environment = 0: sd_notify() reads NOTIFY_SOCKET again on every call.
  if (connected_ && sd_watchdog_enabled(0, &usec) > 0) {
    watchdog_timeout_ = std::chrono::microseconds(usec);
  }
}

bool SdNotifier::send(const std::string& state) const {
  if (!connected_) return false;
  const int sent = sd_notify(0, state.c_str());
  if (sent > 0) return true;
  if (!warned_.exchange(true, std::memory_order_relaxed)) {
    spdlog::warn("cannot notify systemd through NOTIFY_SOCKET: {}",
                 sent < 0 ? std::generic_category().message(-sent) : "NOTIFY_SOCKET is gone");
  }
  return false;
}

std::string format_run_status(std::int64_t ticks, double real_time_factor, std::uint64_t overruns) {
  return fmt::format("tick {}, RTF {:.2f}, {} overrun{}", ticks, real_time_factor, overruns,
                     overruns == 1 ? "" : "s");
}

RunNotifier::RunNotifier(const std::atomic<std::int64_t>& ticks, StatusLine status_line,
                         std::chrono::milliseconds status_period)
    : ticks_(ticks), status_line_(std::move(status_line)), status_period_(status_period) {}

std::chrono::microseconds RunNotifier::watchdog_interval() const noexcept {
  return notifier_.watchdog_timeout() / 2;
}

std::chrono::microseconds RunNotifier::poll_period() const noexcept {
  const std::chrono::microseconds interval = watchdog_interval();
  if (interval.count() == 0) return kDefaultPollPeriod;
  return std::clamp(interval / 2, std::chrono::microseconds(1), kDefaultPollPeriod);
}

void RunNotifier::poll(Clock::time_point now) {
  if (!notifier_.connected()) return;
  const std::lock_guard lock(mutex_);
  if (stopping_) return;
  // Relaxed: see the class comment; the RT thread stores it (relaxed) once per tick.
  const std::int64_t ticks = ticks_.load(std::memory_order_relaxed);
  if (!ready_) {
    if (ticks <= 0) return;  // no tick has run yet: still starting up
    ready_ = true;
    notifier_.send("READY=1");
    ticks_at_last_feed_ = ticks;
    last_feed_ = now;
    last_status_ = now;
    send_status();
    return;
  }
  const std::chrono::microseconds interval = watchdog_interval();
  if (interval.count() > 0 && now - last_feed_ >= interval && ticks > ticks_at_last_feed_) {
    notifier_.send("WATCHDOG=1");
    ticks_at_last_feed_ = ticks;
    last_feed_ = now;
  }
  if (now - last_status_ >= status_period_) {
    last_status_ = now;
    send_status();
  }
}

void RunNotifier::send_status() {
  if (status_line_) notifier_.send("STATUS=" + one_line(status_line_()));
}

void RunNotifier::status(std::string_view line) {
  if (!notifier_.connected()) return;
  const std::lock_guard lock(mutex_);
  notifier_.send("STATUS=" + one_line(line));
}

void RunNotifier::stopping() {
  if (!notifier_.connected()) return;
  const std::lock_guard lock(mutex_);
  if (stopping_) return;
  stopping_ = true;
  notifier_.send("STOPPING=1");
}

}  // namespace hil::session
