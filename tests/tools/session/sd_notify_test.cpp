// tools/sd_notify: the exact datagrams systemd would receive, without systemd — a socket of
// the test's own named by NOTIFY_SOCKET (tests/tools/session/notify_socket.hpp).

#include "tools/session/loop/sd_notify.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "tests/tools/session/notify_socket.hpp"

namespace hil::tools {
namespace {

using std::chrono::milliseconds;
using Strings = std::vector<std::string>;
using testing::NotifySocket;

constexpr auto kNoStatus = std::chrono::hours(1);  // keeps STATUS= out of a test's way

/// A notifier whose status line is "tick N" and whose time the test moves.
struct Fixture {
  std::atomic<std::int64_t> ticks{0};
  session::RunNotifier::Clock::time_point now{};
  std::chrono::milliseconds status_period = kNoStatus;

  session::RunNotifier make() {
    return {ticks, [this] { return "tick " + std::to_string(ticks.load()); }, status_period};
  }
  /// Moves time by `step` and the counter by `advance`, then polls.
  void step(session::RunNotifier& notifier, milliseconds step, std::int64_t advance) {
    now += step;
    ticks += advance;
    notifier.poll(now);
  }
};

TEST(SdNotify, WithoutNotifySocketEverythingIsANoOp) {
  NotifySocket manager;  // bound, but not named in the environment
  NotifySocket::export_watchdog(milliseconds(200));
  Fixture f;
  session::RunNotifier notifier = f.make();
  for (int i = 0; i < 10; ++i) f.step(notifier, milliseconds(100), 1);
  notifier.status("loading");
  notifier.stopping();

  EXPECT_FALSE(notifier.connected());
  EXPECT_EQ(notifier.watchdog_interval().count(), 0);
  EXPECT_FALSE(session::SdNotifier().send("READY=1"));
  EXPECT_TRUE(manager.drain().empty());
}

TEST(SdNotify, ReadyOnceWhenTheFirstTickRan) {
  NotifySocket manager;
  manager.export_socket();
  Fixture f;
  f.status_period = milliseconds(1000);
  session::RunNotifier notifier = f.make();

  for (int i = 0; i < 5; ++i) f.step(notifier, milliseconds(100), 0);  // setup: no tick yet
  EXPECT_TRUE(manager.drain().empty());
  f.step(notifier, milliseconds(100), 1);
  EXPECT_EQ(manager.drain(), (Strings{"READY=1", "STATUS=tick 1"}));
  for (int i = 0; i < 25; ++i) f.step(notifier, milliseconds(100), 4);

  // STATUS= every second after READY=1, READY=1 never again, no watchdog without WatchdogSec=.
  EXPECT_EQ(manager.drain(), (Strings{"STATUS=tick 41", "STATUS=tick 81"}));
}

TEST(SdNotify, WatchdogFedOnlyWhileTheTickCountAdvances) {
  NotifySocket manager;
  manager.export_socket();
  NotifySocket::export_watchdog(std::chrono::seconds(1));  // WATCHDOG=1 every 500 ms
  Fixture f;
  session::RunNotifier notifier = f.make();
  ASSERT_EQ(notifier.watchdog_interval(), milliseconds(500));

  f.step(notifier, milliseconds(100), 5);  // t = 100 ms: first tick
  EXPECT_EQ(manager.drain(), (Strings{"READY=1", "STATUS=tick 5"}));
  for (int i = 0; i < 15; ++i) f.step(notifier, milliseconds(100), 5);              // to t = 1.6 s
  EXPECT_EQ(manager.drain(), (Strings{"WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"}));  // .6 1.1 1.6

  for (int i = 0; i < 30; ++i) f.step(notifier, milliseconds(100), 0);  // stalled 3 s
  EXPECT_TRUE(manager.drain().empty());  // systemd would have killed it after 1 s

  f.step(notifier, milliseconds(100), 1);  // moves again: fed at once, the interval is over
  f.step(notifier, milliseconds(100), 1);
  EXPECT_EQ(manager.drain(), (Strings{"WATCHDOG=1"}));

  notifier.stopping();
  notifier.stopping();
  for (int i = 0; i < 10; ++i) f.step(notifier, milliseconds(500), 5);  // nothing after it
  EXPECT_EQ(manager.drain(), (Strings{"STOPPING=1"}));
}

TEST(SdNotify, ProgressWithinOneIntervalIsEnough) {
  NotifySocket manager;
  manager.export_socket();
  NotifySocket::export_watchdog(std::chrono::seconds(1));
  Fixture f;
  session::RunNotifier notifier = f.make();
  f.step(notifier, milliseconds(100), 1);
  (void)manager.drain();

  // One tick in each 500 ms window, at its start: the loop is slow but alive.
  for (int window = 0; window < 4; ++window) {
    f.step(notifier, milliseconds(100), 1);
    for (int i = 0; i < 4; ++i) f.step(notifier, milliseconds(100), 0);
  }
  EXPECT_EQ(manager.drain(), (Strings{"WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"}));
}

TEST(SdNotify, WatchdogMeantForAnotherProcessIsNotFed) {
  NotifySocket manager;
  manager.export_socket();
  NotifySocket::export_watchdog(std::chrono::seconds(1));
  NotifySocket::export_variable("WATCHDOG_PID", std::to_string(getpid() + 1));  // not ours
  Fixture f;
  session::RunNotifier notifier = f.make();
  for (int i = 0; i < 20; ++i) f.step(notifier, milliseconds(100), 1);

  EXPECT_EQ(notifier.watchdog_interval().count(), 0);
  EXPECT_EQ(manager.drain(), (Strings{"READY=1", "STATUS=tick 1"}));
}

TEST(SdNotify, StatusIsOneLine) {
  NotifySocket manager;
  manager.export_socket();
  Fixture f;
  session::RunNotifier notifier = f.make();
  notifier.status("loading rig bench\nREADY=1\r");
  EXPECT_EQ(manager.drain(), (Strings{"STATUS=loading rig bench READY=1 "}));
}

TEST(SdNotify, ABrokenSocketIsSurvived) {
  NotifySocket manager;
  NotifySocket::export_variable("NOTIFY_SOCKET", "/nonexistent/hilsim-notify");
  NotifySocket::export_watchdog(std::chrono::seconds(1));
  Fixture f;
  session::RunNotifier notifier = f.make();
  for (int i = 0; i < 20; ++i) f.step(notifier, milliseconds(100), 1);
  notifier.stopping();

  EXPECT_TRUE(notifier.connected());
  EXPECT_FALSE(session::SdNotifier().send("STATUS=x"));
  EXPECT_TRUE(manager.drain().empty());
}

TEST(SdNotify, PollPeriodKeepsUpWithShortWatchdogs) {
  NotifySocket manager;
  manager.export_socket();
  std::atomic<std::int64_t> ticks{0};
  EXPECT_EQ(session::RunNotifier(ticks, {}).poll_period(), milliseconds(100));  // no watchdog
  NotifySocket::export_watchdog(std::chrono::seconds(3));
  EXPECT_EQ(session::RunNotifier(ticks, {}).poll_period(), milliseconds(100));
  NotifySocket::export_watchdog(milliseconds(100));  // fed every 50 ms: polled every 25 ms
  EXPECT_EQ(session::RunNotifier(ticks, {}).poll_period(), milliseconds(25));
}

TEST(SdNotify, RunStatusLine) {
  EXPECT_EQ(session::format_run_status(123456, 1.0, 0), "tick 123456, RTF 1.00, 0 overruns");
  EXPECT_EQ(session::format_run_status(7, 0.987, 1), "tick 7, RTF 0.99, 1 overrun");
}

}  // namespace
}  // namespace hil::tools
