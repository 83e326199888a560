// Interop: tests/io/bus/mirror/mirror_peer.py, a stdlib-only Python peer written from the wire
// description, exchanges DATA and PING/PONG with a C++ Mirror: it checks our tags and values,
// we apply its signed snapshots and refuse its forged one, and each side measures an RTT.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "io/bus/mirror/mirror.hpp"
#include "tests/io/bus/mirror/mirror_test_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::bus::mirror {
namespace {

TEST(MirrorPythonPeerTest, ExchangesDataAndPings) {
  const config::testing::TempDir dir;
  const std::filesystem::path key = dir.path() / "bus.key";
  write_new_key(key);
  const BusSchema schema = test::two_region_schema();
  BusImage image(schema);

  const std::string command =
      "/usr/bin/python3 " MIRROR_PEER_PY " --key " + key.string() + " --bus-hash " +
      std::to_string(schema.hash()) + " --recv-region 0 --recv-hash " +
      std::to_string(schema.region_hash(0)) + " --recv-n 4 --send-region 1 --send-hash " +
      std::to_string(schema.region_hash(1)) + " --send-n 3 --count 20 --send-count 5";
  FILE* peer = ::popen(command.c_str(), "r");
  ASSERT_NE(peer, nullptr);
  char line[256] = {};
  ASSERT_NE(std::fgets(line, sizeof line, peer), nullptr);
  unsigned port = 0;
  ASSERT_EQ(std::sscanf(line, "PORT %u", &port), 1) << line;

  MirrorLinkSpec c;
  c.peers.push_back({"127.0.0.1:" + std::to_string(port), {"state"}, {"battery"}});
  c.key_file = key;
  c.max_rate_hz = 0;
  c.ping_interval_s = 0.02;
  Mirror mirror(image, c);
  mirror.start();
  std::atomic<bool> stop{false};
  std::thread publisher([&] {
    RegionWriter state(image.region(0), 5);
    for (std::int64_t k = 1; !stop.load(); ++k) {
      const double v[4] = {static_cast<double>(k), static_cast<double>(k + 1),
                           static_cast<double>(k + 2), static_cast<double>(k + 3)};
      state.publish(v, k, monotonic_ns());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  std::string result;
  while (std::fgets(line, sizeof line, peer) != nullptr) result += line;
  const int status = ::pclose(peer);
  // Let the last datagrams land
  for (int i = 0; i < 200 && mirror.region_counters(1).applied.load() < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  publisher.join();
  mirror.stop();

  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << result;
  EXPECT_NE(result.find("RESULT ok data=20"), std::string::npos) << result;
  EXPECT_EQ(mirror.region_counters(1).applied.load(), 5U);
  EXPECT_EQ(mirror.region_counters(1).auth_failed.load(), 1U) << "the forged snapshot";
  EXPECT_EQ(mirror.region_counters(1).lost.load(), 0U);
  RegionSnapshot got;
  ASSERT_TRUE(image.region(1).read(got, 3).ok);
  EXPECT_EQ(got.head.region_seq, 5U);
  EXPECT_EQ(got.head.tick, 5);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(got.values[i], 50.0 + i);
  EXPECT_GE(mirror.counters().pings.load(), 1U) << "the peer's PING answered";
  EXPECT_GE(mirror.counters().pongs.load(), 1U) << "the peer answered our PING";
  EXPECT_EQ(mirror.counters().malformed.load() + mirror.counters().schema.load(), 0U);
}

}  // namespace
}  // namespace hil::io::bus::mirror
