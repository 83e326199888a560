// SLCAN against python-can's slcan interface (the Debian python3-can package) over two
// pseudo-terminals joined by a relay thread (a null-modem cable): frames flow both ways —
// standard, extended and remote. python-can 4.1's slcan has no CAN FD (no d/D/b/B), so FD is
// tested against a scripted peer in slcan_transport_test.cpp.

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/can/transport/transport_factory.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/pty_pair.hpp"

namespace hil::io::can {
namespace {

using namespace std::chrono_literals;
using test::make_frame;
using test::make_remote;
using test::Pty;

/// The first of $HIL_PYTHON, /usr/bin/python3 (where apt installs python3-can), python3 on
/// PATH that imports can and serial.
std::optional<std::string> python_with_can() {
  std::vector<std::string> candidates;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread starts
  if (const char* env = std::getenv("HIL_PYTHON")) candidates.emplace_back(env);
  candidates.emplace_back("/usr/bin/python3");
  candidates.emplace_back("python3");
  for (const std::string& python : candidates) {
    const std::string probe = python + " -c 'import can, serial' >/dev/null 2>&1";
    // NOLINTNEXTLINE(cert-env33-c,concurrency-mt-unsafe): a probe before any thread starts
    if (std::system(probe.c_str()) == 0) return python;
  }
  return std::nullopt;
}

/// Copies bytes between two pty masters until destroyed.
class Relay {
 public:
  Relay(int a, int b) : thread_([this, a, b] { run(a, b); }) {}
  ~Relay() {
    stop_ = true;
    thread_.join();
  }
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;
  Relay(Relay&&) = delete;
  Relay& operator=(Relay&&) = delete;

 private:
  void run(int a, int b) const {
    char buffer[4096];
    while (!stop_) {
      pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
      if (::poll(fds, 2, 10) <= 0) continue;
      for (int i = 0; i < 2; ++i) {
        if ((fds[i].revents & POLLIN) == 0) continue;
        const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
        for (ssize_t done = 0; n > 0 && done < n && !stop_;) {
          const ssize_t w =
              ::write(fds[1 - i].fd, buffer + done, static_cast<std::size_t>(n - done));
          if (w > 0)
            done += w;
          else
            std::this_thread::sleep_for(1ms);
        }
      }
    }
  }
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(SlcanPython, FramesFlowBothWaysWithPythonCan) {
  const std::optional<std::string> python = python_with_can();
  if (!python) {
    GTEST_SKIP() << "python3-can is missing (tried $HIL_PYTHON, /usr/bin/python3, python3): "
                    "apt-get install python3-can python3-serial, or run tools/install-deps.sh";
  }
  Pty ours;
  Pty theirs;
  Relay relay(ours.master(), theirs.master());
  const auto t = open_transport("slcan:" + ours.slave_path() + "?bitrate=500000");

  const std::string command =
      *python + " " + HIL_SLCAN_PEER_SCRIPT + " " + theirs.slave_path() + " 5 2>&1";
  FILE* peer = ::popen(command.c_str(), "r");
  ASSERT_NE(peer, nullptr);

  // python-can → us.
  std::vector<CanFrame> got;
  for (const TimedFrame& f : test::receive_until(*t, 5, 20s)) got.push_back(f.frame);
  const std::vector<CanFrame> from_python{
      make_frame(0x123, {1, 2, 3}),
      make_frame(0x1ABCDEF0, {0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 2, 3}, kExtended),
      make_remote(0x7FF, 4), make_remote(0x100, 0, true), make_frame(0x000, {})};
  EXPECT_EQ(got, from_python);
  // python-can's C, S6, O (4.1 sends a second O): each acknowledged with '\r'.
  EXPECT_GE(t->counters().snapshot().peer_commands, 3U);

  // us → python-can.
  for (const CanFrame& f :
       {make_frame(0x321, {0xCA, 0xFE}),
        make_frame(0x1FFFFFFF, {1, 2, 3, 4, 5, 6, 7, 8}, kExtended), make_remote(0x555, 8),
        make_remote(0x1234567, 3, true), make_frame(0x7FF, {})}) {
    EXPECT_EQ(t->send(f, 1), SendStatus::ok);
  }
  t->flush(1);

  std::string output;
  char line[512];
  while (std::fgets(line, sizeof line, peer) != nullptr) output += line;
  const int status = ::pclose(peer);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  std::vector<std::string> received;
  std::istringstream lines(output);
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("RX ", 0) == 0) received.push_back(l.substr(0, l.find_last_not_of(' ') + 1));
  }
  const std::vector<std::string> expected{"RX STD 321 0 2 CAFE",
                                          "RX EXT 1FFFFFFF 0 8 0102030405060708", "RX STD 555 1 8",
                                          "RX EXT 1234567 1 3", "RX STD 7FF 0 0"};
  EXPECT_EQ(received, expected) << output;
}

}  // namespace
}  // namespace hil::io::can
