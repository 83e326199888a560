// hilsim.bus (tools/python/hilsim) through libhilbus.so: /usr/bin/python3 attaches to a bus this
// test owns, checks what C++ published, waits, writes; this side checks what Python wrote. The
// runtime directory Python reports (hilsim.bus and hilsim.client) must be the one C++ chose.
#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_server.hpp"
#include "io/bus/endpoint.hpp"
#include "tests/io/bus/client/bus_fixture.hpp"

extern char** environ;

namespace hil::io::bus {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

/// Runs `argv` with extra environment entries; its exit status, or -1 after `limit`.
int run(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
        std::chrono::seconds limit) {
  std::vector<std::string> env_text(extra_env);
  for (char** e = environ; *e != nullptr; ++e) env_text.emplace_back(*e);
  std::vector<char*> env, args;
  for (auto& s : env_text) env.push_back(s.data());
  env.push_back(nullptr);
  std::vector<std::string> argv_text(argv);
  for (auto& s : argv_text) args.push_back(s.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), env.data()) != 0) return -1;
  const auto end = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(PythonClientTest, ReadsWaitsAndWritesThroughLibhilbus) {
  if (access(kPython, X_OK) != 0) GTEST_SKIP() << kPython << " is missing";
  test::RuntimeDir dir;
  BusImage image(test::ravon_bus());
  AttachServer server(image, dir.endpoint());

  // hilsim's side: state = [tick, 2 tick, -1] every 2 ms
  std::atomic<bool> stop{false};
  RegionWriter state(image.region(2), 0x5eed);
  auto publish = [&state](std::int64_t tick) {
    const double v[3] = {static_cast<double>(tick), 2.0 * static_cast<double>(tick), -1.0};
    state.publish(v, tick, monotonic_ns());
  };
  publish(1);
  std::thread hilsim([&] {
    for (std::int64_t tick = 2; !stop.load(); ++tick) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      publish(tick);
    }
  });
  const int rc =
      run({kPython, HILBUS_PEER_SCRIPT, dir.endpoint().string(), runtime_directory().string()},
          {"PYTHONPATH=" HILSIM_PYTHON_DIR, "HILBUS_LIBRARY=" HILBUS_LIBRARY_PATH,
           "PYTHONDONTWRITEBYTECODE=1"},
          std::chrono::seconds(30));
  stop = true;
  hilsim.join();
  ASSERT_EQ(rc, 0) << "the Python side failed (its output is above)";

  RegionSnapshot snap;
  ASSERT_TRUE(image.region(0).read(snap, 3).ok);
  EXPECT_EQ(snap.head.region_seq, 2U);
  EXPECT_EQ(snap.head.tick, 43);
  EXPECT_EQ(snap.head.status, static_cast<std::uint64_t>(SlotStatus::valid));
  EXPECT_NE(snap.head.session_id, 0U);
  EXPECT_EQ(snap.values[0], 13.5);
  EXPECT_EQ(snap.values[1], -0.5);
  RegionSnapshot env;
  ASSERT_TRUE(image.region(1).read(env, 3).ok);
  EXPECT_EQ(env.head.region_seq, 0U) << "the refused env write left nothing";
  // Python exited: its lease is gone
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (server.lease_holder("behaviour") != 0 && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(server.lease_holder("behaviour"), 0);
  EXPECT_EQ(image.region(0).control().writer_pid, 0U);
  EXPECT_EQ(server.leases_granted(), 1U);
}

}  // namespace
}  // namespace hil::io::bus
