// The write lease is the attach connection: when its holder is SIGKILLed, another client
// gets the role within 10 ms (docs/bus.md "Attach"). Wall-clock assertions: label timing.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_server.hpp"
#include "io/bus/client/bus_client.hpp"
#include "tests/io/bus/client/bus_fixture.hpp"

namespace hil::io::bus {
namespace {

TEST(LeaseTakeoverTest, AKilledWritersRoleIsFreeWithinTenMilliseconds) {
  test::RuntimeDir dir;
  BusImage image(test::ravon_bus());
  AttachServer server(image, dir.endpoint());
  AttachSpec o;
  o.role = "behaviour";
  std::vector<double> ms;
  for (int round = 0; round < 20; ++round) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      BusStatus s = BusStatus::io_error;
      std::string w;
      auto c = BusClient::attach(dir.endpoint(), o, s, w);
      const char byte = c ? '1' : '0';
      if (write(ready[1], &byte, 1) != 1) _exit(2);
      for (;;) pause();
    }
    close(ready[1]);
    char byte = 0;
    ASSERT_EQ(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    ASSERT_EQ(byte, '1');
    BusStatus status = BusStatus::io_error;
    std::string why;
    ASSERT_EQ(kill(child, SIGKILL), 0);
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<BusClient> taker;
    while (!taker && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2)) {
      taker = BusClient::attach(dir.endpoint(), o, status, why);
      if (!taker) std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    ASSERT_TRUE(taker) << why;
    int wstatus = 0;
    waitpid(child, &wstatus, 0);
  }
  std::sort(ms.begin(), ms.end());
  RecordProperty("takeover_median_ms", std::to_string(ms[ms.size() / 2]));
  RecordProperty("takeover_p90_ms", std::to_string(ms[ms.size() * 9 / 10]));
  RecordProperty("takeover_max_ms", std::to_string(ms.back()));
  std::printf("lease takeover after SIGKILL: median %.3f ms, max %.3f ms (20 rounds)\n",
              ms[ms.size() / 2], ms.back());
  // The 90th percentile, not the maximum: on this 2-core VM a parallel build can preempt the
  // attach thread for a few ms (the maximum is reported above)
  EXPECT_LE(ms[ms.size() * 9 / 10], 10.0);
}

}  // namespace
}  // namespace hil::io::bus
