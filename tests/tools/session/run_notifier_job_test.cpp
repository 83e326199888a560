// RunNotifier polled as a run polls it (an IoJobs job, tools/session/loop/io_jobs.hpp) on the
// wall clock: the datagrams of a loop that runs, then stalls, then
// ends — what systemd's watchdog sees of it.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/tools/session/notify_socket.hpp"
#include "tools/session/loop/io_jobs.hpp"
#include "tools/session/loop/sd_notify.hpp"

namespace hil::tools {
namespace {

using std::chrono::milliseconds;
using Strings = std::vector<std::string>;
using testing::NotifySocket;

std::size_t count(const Strings& all, const std::string& what) {
  return static_cast<std::size_t>(std::count(all.begin(), all.end(), what));
}

/// Increments `ticks` every millisecond until destroyed: a loop making progress.
class FakeLoop {
 public:
  explicit FakeLoop(std::atomic<std::int64_t>& ticks)
      : thread_([&ticks](const std::stop_token& stop) {
          while (!stop.stop_requested()) {
            ticks.fetch_add(1, std::memory_order_relaxed);
            std::this_thread::sleep_for(milliseconds(1));
          }
        }) {}

 private:
  std::jthread thread_;
};

/// Milliseconds on the steady clock: the status line says when the poll that sent it ran.
std::int64_t now_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::optional<std::int64_t> status_time(const std::string& datagram) {
  if (!datagram.starts_with("STATUS=")) return std::nullopt;
  return std::stoll(datagram.substr(7));
}

TEST(RunNotifierJob, FeedsTheWatchdogWhileTheLoopRunsAndStopsWhenItStalls) {
  NotifySocket manager;
  manager.export_socket();
  NotifySocket::export_watchdog(milliseconds(100));  // WATCHDOG=1 every 50 ms, polled at 25
  std::atomic<std::int64_t> ticks{0};
  // STATUS= on every poll, saying when it ran: the test's view of the polling thread.
  session::RunNotifier notifier(
      ticks, [] { return std::to_string(now_ms()); }, milliseconds(1));
  session::IoJobs polling;
  polling.every(std::chrono::duration_cast<milliseconds>(notifier.poll_period()),
                [&notifier] { notifier.poll(); });

  std::this_thread::sleep_for(milliseconds(100));  // setup: no tick yet
  const Strings starting = manager.drain();
  {
    FakeLoop loop(ticks);
    std::this_thread::sleep_for(milliseconds(500));
  }
  // Stalled from here. The first poll a watchdog interval (+10 ms margin) later feeds the last
  // progress (if not fed yet) and is the last that may: wait for its STATUS, however late.
  const std::int64_t stalled_at = now_ms();
  Strings running;
  while (const std::optional<std::string> d = manager.receive(std::chrono::seconds(5))) {
    running.push_back(*d);
    if (status_time(*d).value_or(0) >= stalled_at + 60) break;
  }
  Strings stalled;  // five watchdog timeouts' worth of polls
  const std::int64_t stall_end = now_ms() + 500;
  while (now_ms() < stall_end) {
    if (auto d = manager.receive(milliseconds(stall_end - now_ms()))) stalled.push_back(*d);
  }
  notifier.stopping();
  std::this_thread::sleep_for(milliseconds(50));
  const Strings stopping = manager.drain();

  EXPECT_TRUE(starting.empty()) << starting.front();
  ASSERT_FALSE(running.empty());
  EXPECT_EQ(running.front(), "READY=1");
  EXPECT_EQ(count(running, "READY=1"), 1U);
  ASSERT_GE(status_time(running.back()).value_or(0), stalled_at + 60) << "no poll after stall";
  // 500 ms of progress at one feed per 50 ms: 10 (+1 after it) at most; fewer when the
  // machine is so busy that polls come late.
  EXPECT_GE(count(running, "WATCHDOG=1"), 3U);
  EXPECT_LE(count(running, "WATCHDOG=1"), 11U);
  EXPECT_EQ(count(stalled, "WATCHDOG=1"), 0U);
  EXPECT_GE(stalled.size(), 2U) << "the polling thread kept polling during the stall";
  ASSERT_FALSE(stopping.empty());
  EXPECT_EQ(stopping.back(), "STOPPING=1");
  EXPECT_EQ(count(stopping, "WATCHDOG=1"), 0U);
  EXPECT_EQ(count(stopping, "STOPPING=1"), 1U);
}

TEST(RunNotifierJob, StopsPromptly) {
  NotifySocket manager;
  manager.export_socket();
  std::atomic<std::int64_t> ticks{1};
  session::RunNotifier notifier(ticks, {});
  const auto started = std::chrono::steady_clock::now();
  {
    session::IoJobs polling;
    polling.every(std::chrono::duration_cast<milliseconds>(notifier.poll_period()),
                  [&notifier] { notifier.poll(); });
  }  // polls every 100 ms; stopping must not wait for it
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(50));
}

}  // namespace
}  // namespace hil::tools
