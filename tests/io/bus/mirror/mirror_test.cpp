// io/bus/mirror/mirror.hpp: two mirrors on 127.0.0.1, each with its own BusImage of the same
// schema: A sends "state" to B, B sends "battery" to A; what lands in each replica, the PING
// RTT, strangers refused, and the setup errors and their messages.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "io/bus/mirror/mirror.hpp"
#include "io/bus/mirror/mirror_health.hpp"
#include "tests/io/bus/mirror/mirror_test_support.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/udp_test_socket.hpp"

namespace hil::io::bus::mirror {
namespace {

using config::testing::TempDir;

template <class Predicate>
bool eventually(Predicate done, std::chrono::milliseconds limit = std::chrono::seconds(5)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

class MirrorPairTest : public ::testing::Test {
 protected:
  MirrorPairTest() : a_image_(test::two_region_schema()), b_image_(test::two_region_schema()) {
    key_ = dir_.path() / "bus.key";
    write_new_key(key_);
  }

  MirrorLinkSpec config(const std::string& peer, std::vector<std::string> send,
                        std::vector<std::string> receive) const {
    MirrorLinkSpec c;
    c.peers.push_back({peer, std::move(send), std::move(receive)});
    c.key_file = key_;
    c.max_rate_hz = 0;
    c.ping_interval_s = 0.01;
    c.poll_us = 50;
    return c;
  }

  TempDir dir_;
  std::filesystem::path key_;
  BusImage a_image_;
  BusImage b_image_;
};

TEST_F(MirrorPairTest, SnapshotsReachTheOtherReplicaWithTheirHeader) {
  // Ports first: each mirror needs the other's address
  const std::uint16_t a_port = can::test::UdpTestSocket::free_port();
  const std::uint16_t b_port = can::test::UdpTestSocket::free_port();
  MirrorLinkSpec ca = config("127.0.0.1:" + std::to_string(b_port), {"state"}, {"battery"});
  ca.bind = "127.0.0.1:" + std::to_string(a_port);
  MirrorLinkSpec cb = config("127.0.0.1:" + std::to_string(a_port), {"battery"}, {"state"});
  cb.bind = "127.0.0.1:" + std::to_string(b_port);
  Mirror a(a_image_, ca);
  Mirror b(b_image_, cb);
  EXPECT_EQ(a.local_address(), ca.bind);
  a.start();
  b.start();

  RegionWriter state(a_image_.region(0), 77);
  const double values[4] = {1.5, -2, 3e9, 0.125};
  state.publish(values, 1234, monotonic_ns());
  ASSERT_TRUE(eventually([&] { return b.region_counters(0).applied.load() == 1; }));
  RegionSnapshot got;
  ASSERT_TRUE(b_image_.region(0).read(got, 3).ok);
  EXPECT_EQ(got.head.region_seq, 1U) << "the mirror's own count of snapshots sent";
  EXPECT_EQ(got.head.tick, 1234);
  EXPECT_EQ(got.head.session_id, a.session_id()) << "the remote session";
  EXPECT_EQ(got.head.status, static_cast<std::uint64_t>(SlotStatus::valid));
  EXPECT_LE(got.head.publish_mono_ns, monotonic_ns());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got.values[i], values[i]);

  // A region flagged invalid by its writer arrives as safe_state
  state.publish(values, 1235, monotonic_ns(), SlotStatus::safe_state);
  ASSERT_TRUE(eventually([&] { return b.region_counters(0).applied.load() == 2; }));
  ASSERT_TRUE(b_image_.region(0).read(got, 3).ok);
  EXPECT_EQ(got.head.status, static_cast<std::uint64_t>(SlotStatus::safe_state));
  EXPECT_EQ(got.head.region_seq, 2U);

  RegionWriter battery(b_image_.region(1), 88);
  const double cell[3] = {400.5, -12, 0.8};
  battery.publish(cell, 9, monotonic_ns());
  ASSERT_TRUE(eventually([&] { return a.region_counters(1).applied.load() == 1; }));
  ASSERT_TRUE(a_image_.region(1).read(got, 3).ok);
  EXPECT_EQ(got.values[0], 400.5);
  EXPECT_EQ(got.head.session_id, b.session_id());

  ASSERT_TRUE(eventually([&] { return a.counters().pongs.load() > 0; }));
  EXPECT_GT(b.counters().pings.load(), 0U);
  // After an RTT sample, the age includes half of it
  battery.publish(cell, 10, monotonic_ns());
  ASSERT_TRUE(eventually([&] { return a.region_counters(1).applied.load() == 2; }));
  EXPECT_EQ(a.counters().auth_failed.load(), 0U);
  EXPECT_EQ(a.counters().unknown_source.load(), 0U);
  EXPECT_EQ(b.counters().lost.load(), 0U);
  a.stop();
  a.stop();  // idempotent
  b.stop();
}

TEST_F(MirrorPairTest, StrangersAndForgersAreCountedNotApplied) {
  Mirror b(b_image_, config("127.0.0.1:9", {}, {"state"}));
  b.start();
  const auto port = static_cast<std::uint16_t>(std::stoi(b.local_address().substr(10)));
  const can::test::UdpTestSocket stranger;
  const BusSchema schema = test::two_region_schema();
  stranger.send_to(port, test::data_packet(schema, {.region = 0}, MirrorKey::load(key_)));
  stranger.send_to(port, std::vector<std::uint8_t>(3000, 0x48));
  ASSERT_TRUE(eventually([&] { return b.counters().rx.load() == 2; }));
  // A stranger's datagrams are counted by their source before anything is parsed
  EXPECT_EQ(b.counters().unknown_source.load(), 2U);
  EXPECT_EQ(b.counters().malformed.load(), 0U);
  EXPECT_EQ(b.counters().applied.load(), 0U);
  EXPECT_EQ(b.peer_counters(0).rx.load(), 0U) << "nothing from the configured peer";
}

TEST_F(MirrorPairTest, AWireV2SenderIsAcceptedByADefaultReceiver) {
  const std::uint16_t a_port = can::test::UdpTestSocket::free_port();
  Mirror b(b_image_, config("127.0.0.1:" + std::to_string(a_port), {}, {"state"}));
  MirrorLinkSpec ca = config(b.local_address(), {"state"}, {});
  ca.bind = "127.0.0.1:" + std::to_string(a_port);
  ca.tag = TagKind::blake2b;
  Mirror a(a_image_, ca);
  b.start();
  a.start();
  RegionWriter state(a_image_.region(0), 7);
  const double v[4] = {1, 2, 3, 4};
  state.publish(v, 1, monotonic_ns());
  ASSERT_TRUE(eventually([&] { return b.region_counters(0).applied.load() == 1; }));
  ASSERT_TRUE(eventually([&] { return a.counters().pongs.load() > 0; })) << "PING/PONG in v2 too";
  EXPECT_EQ(b.counters().auth_failed.load(), 0U);
  EXPECT_EQ(b.peer_counters(0).applied.load(), 1U);
  EXPECT_EQ(mirror_health_json(a, a_image_.schema())["tag"], "blake2b");
}

// A peer sending far more than its budget: the first 4 periods' worth pass (the bucket starts
// full), the rest are dropped unparsed and counted, per peer and in the totals; a stranger's
// datagrams are unknown_source and cost nobody's budget. The health report says so.
TEST_F(MirrorPairTest, AFloodingPeerIsCutAtItsBudgetAndTheHealthSaysSo) {
  const can::test::UdpTestSocket peer;
  MirrorLinkSpec cb = config("127.0.0.1:" + std::to_string(peer.port()), {}, {"battery"});
  cb.receive_budget = 5;
  cb.budget_period_ns = 1'000'000'000;  // a 1 s "tick": no refill while the test runs
  cb.ping_interval_s = 0;
  Mirror b(b_image_, cb);
  b.start();
  const auto port = static_cast<std::uint16_t>(std::stoi(b.local_address().substr(10)));
  const BusSchema schema = test::two_region_schema();
  const MirrorKey key = MirrorKey::load(key_);
  const can::test::UdpTestSocket stranger;
  for (std::uint64_t seq = 1; seq <= 50; ++seq) {
    peer.send_to(port, test::data_packet(schema, {.region = 1, .region_seq = seq}, key));
  }
  for (int i = 0; i < 3; ++i) {
    stranger.send_to(port, test::data_packet(schema, {.region = 1, .region_seq = 99}, key));
  }
  ASSERT_TRUE(eventually([&] { return b.counters().rx.load() == 53; }));
  const PeerCounters& pc = b.peer_counters(0);
  EXPECT_EQ(pc.rx.load(), 50U);
  EXPECT_EQ(pc.applied.load(), 20U) << "4 periods x 5 datagrams";
  EXPECT_EQ(pc.over_budget.load(), 30U);
  EXPECT_EQ(b.counters().over_budget.load(), 30U);
  EXPECT_EQ(b.counters().unknown_source.load(), 3U);
  EXPECT_EQ(pc.unknown_source.load(), 0U);
  const nlohmann::json h = mirror_health_json(b, schema);
  EXPECT_EQ(h["budget_datagrams_per_tick"], 5);
  EXPECT_EQ(h["totals"]["dropped"]["over_budget"], 30);
  EXPECT_EQ(h["totals"]["dropped"]["unknown_source"], 3);
  ASSERT_EQ(h["peers"].size(), 1U);
  EXPECT_EQ(h["peers"][0]["address"], "127.0.0.1:" + std::to_string(peer.port()));
  EXPECT_EQ(h["peers"][0]["applied"], 20);
  EXPECT_EQ(h["peers"][0]["dropped"]["over_budget"], 30);
  EXPECT_TRUE(h["peers"][0]["rtt_us"].is_null()) << "no PING configured: no RTT";
  ASSERT_EQ(h["regions"].size(), 1U);
  EXPECT_EQ(h["regions"][0]["region"], "battery");
  EXPECT_EQ(h["regions"][0]["applied"], 20);
  const std::string text = mirror_health_text(h);
  EXPECT_NE(text.find("30 over_budget"), std::string::npos) << text;
  EXPECT_NE(text.find("3 unknown_source"), std::string::npos) << text;
  EXPECT_NE(text.find("region battery from 127.0.0.1:"), std::string::npos) << text;
}

TEST_F(MirrorPairTest, SetupErrorsSayWhatIsWrong) {
  auto error = [&](MirrorLinkSpec c) -> std::string {
    try {
      Mirror m(a_image_, std::move(c));
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  const std::string peer = "127.0.0.1:29999";
  EXPECT_NE(error(config(peer, {"nope"}, {})).find("region \"nope\" is not in bus"),
            std::string::npos);
  EXPECT_NE(error(config(peer, {"state"}, {"state"})).find("both sent and received"),
            std::string::npos);
  MirrorLinkSpec two = config(peer, {}, {"battery"});
  two.peers.push_back({"127.0.0.1:29998", {}, {"battery"}});
  EXPECT_NE(error(two).find("received from two peers"), std::string::npos);
  EXPECT_NE(error(config("127.0.0.1", {}, {})).find("HOST:PORT"), std::string::npos);
  EXPECT_NE(error(config("no.such.host.invalid:1", {}, {})).find("cannot resolve"),
            std::string::npos);
  MirrorLinkSpec bad_bind = config(peer, {}, {});
  bad_bind.bind = "192.0.2.1:0";  // TEST-NET: not an address of this host
  EXPECT_NE(error(bad_bind).find("cannot bind"), std::string::npos) << error(bad_bind);
  MirrorLinkSpec no_key = config(peer, {}, {});
  no_key.key_file = dir_.path() / "missing.key";
  EXPECT_NE(error(no_key).find("missing.key"), std::string::npos);
  ::chmod(key_.c_str(), 0644);
  EXPECT_NE(error(config(peer, {}, {})).find("chmod 640"), std::string::npos);
  ::chmod(key_.c_str(), 0600);
  MirrorLinkSpec repeat = config(peer, {}, {});
  repeat.send_repeat = 0;
  EXPECT_NE(error(repeat).find("send_repeat"), std::string::npos);
  MirrorLinkSpec budget = config(peer, {}, {});
  budget.receive_budget = 0;
  EXPECT_NE(error(budget).find("receive_budget 0"), std::string::npos);
  EXPECT_EQ(error(config(peer, {"state"}, {"battery"})), "");
}

TEST_F(MirrorPairTest, AnOldKeyIsAcceptedDuringARotation) {
  const std::filesystem::path next = dir_.path() / "next.key";
  write_new_key(next);
  const std::uint16_t b_port = can::test::UdpTestSocket::free_port();
  MirrorLinkSpec ca = config("127.0.0.1:" + std::to_string(b_port), {"state"}, {});
  Mirror a(a_image_, ca);  // still signs with key 1
  MirrorLinkSpec cb = config(a.local_address(), {}, {"state"});
  cb.bind = "127.0.0.1:" + std::to_string(b_port);
  cb.key_file = next;  // B already signs with key 2, and accepts key 1
  cb.key_id = 2;
  cb.previous_key_file = key_;
  cb.previous_key_id = 1;
  Mirror b(b_image_, cb);
  a.start();
  b.start();
  RegionWriter state(a_image_.region(0), 1);
  const double values[4] = {1, 2, 3, 4};
  state.publish(values, 1, monotonic_ns());
  ASSERT_TRUE(eventually([&] { return b.counters().applied.load() == 1; }));
  // A has only key 1: B's PINGs (key 2) fail there, so A measures no RTT through them
  ASSERT_TRUE(eventually([&] { return a.counters().auth_failed.load() > 0; }));
}

}  // namespace
}  // namespace hil::io::bus::mirror
