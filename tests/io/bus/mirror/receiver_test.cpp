// io/bus/mirror/receiver.hpp: the receiver's rules in order, with exact counters — ordering
// within a session, a restarted writer accepted on its first packet, replays of an earlier
// session refused, lost counted exactly, and refused packets changing nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "io/bus/mirror/receiver.hpp"
#include "tests/io/bus/mirror/mirror_test_support.hpp"

namespace hil::io::bus::mirror {
namespace {

using test::data_packet;
using test::PacketSpec;

constexpr int kPeer = 0;
constexpr int kOtherPeer = 1;

class ReceiverTest : public ::testing::Test {
 protected:
  ReceiverTest() : schema_(test::two_region_schema()), receiver_(schema_, keys_, totals_) {
    keys_.add(1, test::fixed_key());
    receiver_.expect(1, kPeer);  // battery comes from peer 0
  }

  Verdict feed(PacketSpec spec, int peer = kPeer) {
    spec.region = 1;
    const std::vector<std::uint8_t> bytes = data_packet(schema_, spec, test::fixed_key());
    Packet p;
    const Verdict v = receiver_.accept(bytes, peer, p);
    if (v == Verdict::applied) {
      EXPECT_EQ(p.data.region_seq, spec.region_seq);
      for (std::uint32_t i = 0; i < p.data.n; ++i) {
        EXPECT_EQ(p.value(i), static_cast<double>(spec.region_seq + i));
      }
    }
    return v;
  }
  Verdict seq(std::uint64_t s, std::uint64_t session = 0xA, std::uint64_t start = 1000) {
    return feed({.session_id = session, .session_start = start, .region_seq = s});
  }
  const RegionReceiveCounters& battery() const { return receiver_.region_counters(1); }

  BusSchema schema_;
  KeyRing keys_;
  ReceiveCounters totals_;
  Receiver receiver_;
};

TEST_F(ReceiverTest, WithinASessionOnlyNewerSnapshotsAreApplied) {
  EXPECT_EQ(seq(1), Verdict::applied);
  EXPECT_EQ(seq(2), Verdict::applied);
  EXPECT_EQ(seq(2), Verdict::duplicate);
  EXPECT_EQ(seq(1), Verdict::reordered_old);
  EXPECT_EQ(seq(5), Verdict::applied);
  EXPECT_EQ(seq(4), Verdict::reordered_old) << "never an older snapshot after a newer one";
  EXPECT_EQ(seq(5), Verdict::duplicate);
  EXPECT_EQ(feed({.session_id = 0xA, .session_start = 1000, .region_seq = 6, .tick = 3}),
            Verdict::tick_regression);
  EXPECT_EQ(seq(6), Verdict::applied) << "a refused packet changed nothing";
  EXPECT_EQ(battery().applied.load(), 4U);
  EXPECT_EQ(battery().duplicates.load(), 2U);
  EXPECT_EQ(battery().reordered.load(), 2U);
  EXPECT_EQ(battery().tick_regression.load(), 1U);
  EXPECT_EQ(battery().lost.load(), 2U) << "3 and 4 were never applied";
  EXPECT_EQ(battery().region_seq.load(), 6U);
  EXPECT_EQ(battery().session_id.load(), 0xAU);
  EXPECT_EQ(totals_.applied.load(), 4U);
  EXPECT_EQ(totals_.duplicates.load(), 2U);
  EXPECT_EQ(totals_.reordered.load(), 2U);
  EXPECT_EQ(totals_.lost.load(), 2U);
}

TEST_F(ReceiverTest, LostCountsEveryRegionSeqNeverApplied) {
  // Ground truth: the sender sent 1..100; these arrive (some late, some twice)
  const std::vector<std::uint64_t> arrivals = {1,  2,  5,  4,  3,  6,  6,  10,  9,   11, 12,
                                               40, 13, 41, 42, 70, 71, 99, 100, 100, 98};
  std::uint64_t applied = 0;
  std::uint64_t max = 0;
  for (const std::uint64_t s : arrivals) {
    if (seq(s) == Verdict::applied) ++applied;
    max = std::max(max, s);
  }
  EXPECT_EQ(applied, 14U);
  EXPECT_EQ(battery().lost.load(), max - applied) << "first contact at 1: lost = 100 − applied";
  EXPECT_EQ(battery().lost.load(), 86U);
}

TEST_F(ReceiverTest, FirstContactCountsNothingLostBeforeIt) {
  EXPECT_EQ(seq(500), Verdict::applied);
  EXPECT_EQ(battery().lost.load(), 0U);
  EXPECT_EQ(seq(502), Verdict::applied);
  EXPECT_EQ(battery().lost.load(), 1U);
}

TEST_F(ReceiverTest, ARestartedWriterIsAcceptedOnItsFirstPacket) {
  for (std::uint64_t s = 1; s <= 1000; ++s) ASSERT_EQ(seq(s), Verdict::applied);
  // The new session's seq 1 is far below the old 1000: applied at once, not after 1000
  EXPECT_EQ(seq(1, 0xB, 2000), Verdict::applied);
  EXPECT_EQ(battery().writer_restarts.load(), 1U);
  EXPECT_EQ(battery().session_id.load(), 0xBU);
  EXPECT_EQ(battery().region_seq.load(), 1U);
  EXPECT_EQ(battery().lost.load(), 0U);
  EXPECT_EQ(seq(2, 0xB, 2000), Verdict::applied);
  EXPECT_EQ(seq(4, 0xB, 2000), Verdict::applied);
  EXPECT_EQ(battery().lost.load(), 1U);
  // A restart whose first packets were lost: region_seq starts at 1, so 1..3 are lost
  EXPECT_EQ(seq(4, 0xC, 3000), Verdict::applied);
  EXPECT_EQ(battery().writer_restarts.load(), 2U);
  EXPECT_EQ(battery().lost.load(), 4U);
}

TEST_F(ReceiverTest, ReplaysOfAnEarlierSessionAreRefused) {
  for (std::uint64_t s = 1; s <= 10; ++s) ASSERT_EQ(seq(s, 0xA, 1000), Verdict::applied);
  ASSERT_EQ(seq(1, 0xB, 2000), Verdict::applied);
  for (std::uint64_t s = 1; s <= 20; ++s) {
    EXPECT_EQ(seq(s, 0xA, 1000), Verdict::old_session) << "replayed seq " << s;
  }
  EXPECT_EQ(seq(5000, 0xA, 1000), Verdict::old_session) << "a higher seq does not help";
  EXPECT_EQ(seq(1, 0xD, 1500), Verdict::old_session) << "an unseen session started earlier";
  EXPECT_EQ(seq(1, 0xE, 2000), Verdict::old_session) << "the same start, another id";
  EXPECT_EQ(battery().old_session.load(), 23U);
  EXPECT_EQ(battery().session_id.load(), 0xBU);
  EXPECT_EQ(seq(2, 0xB, 2000), Verdict::applied);
  EXPECT_EQ(battery().lost.load(), 0U);
}

TEST_F(ReceiverTest, SchemaSourceAndAuthenticityComeFirst) {
  Packet p;
  std::vector<std::uint8_t> good = data_packet(schema_, {.region = 1}, test::fixed_key());
  // 1. malformed and schema
  EXPECT_EQ(receiver_.accept(std::span(good).first(50), kPeer, p), Verdict::malformed);
  BusSchema other = test::two_region_schema(5);  // another bus: state has 5 values
  EXPECT_EQ(receiver_.accept(data_packet(other, {.region = 1}, test::fixed_key()), kPeer, p),
            Verdict::schema)
      << "bus hash";
  BusSchema renamed = schema_;
  renamed.regions[1].channels[2].unit = "%";
  std::vector<std::uint8_t> b = data_packet(renamed, {.region = 1}, test::fixed_key());
  for (int i = 0; i < 8; ++i) b[8 + i] = good[8 + i];  // same bus hash, region hash differs
  EXPECT_EQ(receiver_.accept(b, kPeer, p), Verdict::schema) << "region hash";
  b = good;
  b[40] = 7;  // region id out of range
  EXPECT_EQ(receiver_.accept(b, kPeer, p), Verdict::schema);
  std::vector<std::uint8_t> state = data_packet(schema_, {.region = 0}, test::fixed_key());
  state[40] = 1;  // "state"'s 4 values presented as "battery" (3)
  EXPECT_EQ(receiver_.accept(state, kPeer, p), Verdict::schema) << "n";
  EXPECT_EQ(totals_.malformed.load(), 1U);
  EXPECT_EQ(totals_.schema.load(), 4U);
  // 2. source
  EXPECT_EQ(receiver_.accept(good, kOtherPeer, p), Verdict::unknown_source);
  EXPECT_EQ(receiver_.accept(good, Receiver::kUnknownPeer, p), Verdict::unknown_source);
  EXPECT_EQ(receiver_.accept(data_packet(schema_, {.region = 0}, test::fixed_key()), kPeer, p),
            Verdict::unknown_source)
      << "state is received from nobody";
  EXPECT_EQ(totals_.unknown_source.load(), 3U);
  EXPECT_EQ(battery().unknown_source.load(), 2U);
  // 3. authenticity: wrong key, unknown key id, a forged high seq
  EXPECT_EQ(
      receiver_.accept(data_packet(schema_, {.region = 1, .region_seq = 99}, test::fixed_key(0x41)),
                       kPeer, p),
      Verdict::auth_failed);
  EXPECT_EQ(receiver_.accept(data_packet(schema_, {.region = 1, .key_id = 2}, test::fixed_key()),
                             kPeer, p),
            Verdict::auth_failed);
  EXPECT_EQ(totals_.auth_failed.load(), 2U);
  EXPECT_EQ(battery().auth_failed.load(), 2U);
  EXPECT_EQ(receiver_.accept(good, kPeer, p), Verdict::applied) << "nothing above changed state";
  EXPECT_EQ(battery().applied.load(), 1U);
}

TEST_F(ReceiverTest, PingAndPongFromConfiguredPeersOnly) {
  std::array<std::uint8_t, kPingBytes> buf{};
  const PacketHead head{.type = PacketType::ping, .key_id = 1, .bus_schema_hash = schema_.hash()};
  ASSERT_EQ(encode_ping(buf, head, {.ping_seq = 3}, test::fixed_key()), kPingBytes);
  Packet p;
  EXPECT_EQ(receiver_.accept(buf, kOtherPeer, p), Verdict::ping) << "any configured peer";
  EXPECT_EQ(p.ping.ping_seq, 3U);
  EXPECT_EQ(receiver_.accept(buf, Receiver::kUnknownPeer, p), Verdict::unknown_source);
  PacketHead pong = head;
  pong.type = PacketType::pong;
  ASSERT_EQ(encode_ping(buf, pong, {.ping_seq = 3}, test::fixed_key()), kPingBytes);
  EXPECT_EQ(receiver_.accept(buf, kPeer, p), Verdict::pong);
  buf[50] ^= 1;
  EXPECT_EQ(receiver_.accept(buf, kPeer, p), Verdict::auth_failed);
}

TEST(ReceiverSetupTest, OneWriterPerRegion) {
  const BusSchema schema = test::two_region_schema();
  KeyRing keys;
  ReceiveCounters totals;
  Receiver r(schema, keys, totals);
  r.expect(1, 0);
  r.expect(1, 0);
  EXPECT_THROW(r.expect(1, 1), std::invalid_argument);
  EXPECT_THROW(r.expect(2, 0), std::invalid_argument);
  EXPECT_EQ(r.peer_of(1), 0);
  EXPECT_EQ(r.peer_of(0), Receiver::kUnknownPeer);
}

}  // namespace
}  // namespace hil::io::bus::mirror
