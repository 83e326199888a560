// The receive budget (io/can/transport/rx_budget.hpp, docs/can.md "Receive budget"): its
// default from the bus's bit rate and the tick period, and that each transport hands a tick
// at most the budget, drops the rest at the link and counts every dropped frame by reason —
// for a known burst, exactly.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "io/can/transport/cannelloni_codec.hpp"
#include "io/can/transport/cannelloni_transport.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/pty_pair.hpp"
#include "tests/support/udp_test_socket.hpp"

namespace hil::io::can {
namespace {

using namespace std::chrono_literals;
using test::make_frame;

TEST(RxBudgetDefault, TwiceWhatTheBusCarriesInATick) {
  // 1 Mbit/s, 250 µs: 250 bits / 47 bits per shortest frame = 5.32 frames; twice, rounded up
  EXPECT_EQ(default_rx_frames_per_tick(250e-6, 1'000'000, std::nullopt), 11U);
  // 500 kbit/s, 1 ms: 500 / 47 = 10.64; twice: 21.28 → 22
  EXPECT_EQ(default_rx_frames_per_tick(1e-3, 500'000, std::nullopt), 22U);
  // CAN FD, 8 Mbit/s data phase, 250 µs: 2000 / 47 = 42.55; twice: 85.1 → 86
  EXPECT_EQ(default_rx_frames_per_tick(250e-6, 500'000, 8'000'000), 86U);
  // no bit rate given: the fastest bus there is, an 8 Mbit/s data phase
  EXPECT_EQ(default_rx_frames_per_tick(250e-6, std::nullopt, std::nullopt), 86U);
  // a slow bus and a short tick still get one frame
  EXPECT_EQ(default_rx_frames_per_tick(50e-6, 10'000, std::nullopt), 1U);
  EXPECT_DOUBLE_EQ(bus_frames_per_period(47e-6, 1'000'000), 1.0);
}

TEST(RxBudget, CountsPerTickAndShedsOnceABurstHasLastedKShedAfterTicks) {
  constexpr std::int64_t kAfter = RxBudget::kShedAfterTicks;
  static_assert(kAfter >= 2);
  RxBudget budget(3);
  EXPECT_EQ(budget.allowance(7), 3U);
  budget.handed(2);
  EXPECT_FALSE(budget.shed_now());
  EXPECT_EQ(budget.allowance(7), 1U);
  budget.handed(1);
  EXPECT_FALSE(budget.shed_now());  // spent once: a burst, it waits
  EXPECT_EQ(budget.allowance(7), 0U);
  for (std::int64_t tick = 8; tick < 7 + kAfter - 1; ++tick) {
    EXPECT_EQ(budget.allowance(tick), 3U);  // a new tick
    budget.handed(3);
    EXPECT_FALSE(budget.shed_now());
  }
  std::int64_t tick = 7 + kAfter - 1;
  EXPECT_EQ(budget.allowance(tick), 3U);
  budget.handed(3);
  EXPECT_TRUE(budget.shed_now());   // kShedAfterTicks in a row: an overload
  EXPECT_FALSE(budget.shed_now());  // once a tick
  EXPECT_EQ(budget.allowance(++tick), 3U);
  budget.handed(3);
  EXPECT_TRUE(budget.shed_now());  // and every spent tick after it
  EXPECT_EQ(budget.allowance(++tick), 3U);
  budget.handed(2);  // not spent: nothing to drop
  EXPECT_FALSE(budget.shed_now());
  EXPECT_EQ(budget.allowance(++tick), 3U);
  budget.handed(3);
  EXPECT_TRUE(budget.shed_now());  // one calm tick does not end an overload
  for (std::int64_t calm = 0; calm < kAfter; ++calm) {
    EXPECT_EQ(budget.allowance(++tick), 3U);
    budget.handed(1);
    EXPECT_FALSE(budget.shed_now());
  }
  EXPECT_EQ(budget.allowance(++tick), 3U);
  budget.handed(3);
  EXPECT_FALSE(budget.shed_now());  // kShedAfterTicks calm ticks did: a burst waits again
  EXPECT_EQ(RxBudget().allowance(0), RxBudget::kUnlimited);
  EXPECT_FALSE(RxBudget().shed_now());
}

/// As CanBus::read drains a transport in one tick: until a call returns less than the inbox.
std::size_t drain_tick(Transport& t, std::vector<TimedFrame>& inbox, std::int64_t tick) {
  std::size_t total = 0;
  for (;;) {
    const std::size_t n = t.receive(inbox, tick);
    total += n;
    if (n < inbox.size()) return total;
  }
}

TEST(RxBudget, VirtualBusHandsTheBudgetAndDropsTheRest) {
  const auto rig = open_transport("virtual:budget?queue=1000");
  const auto peer = open_transport("virtual:budget?queue=1000");
  rig->set_rx_budget(5);
  for (int i = 0; i < 100; ++i) (void)peer->send(make_frame(0x700, {1, 2}), 0);
  std::vector<TimedFrame> inbox(256);
  constexpr std::int64_t kAfter = RxBudget::kShedAfterTicks;
  for (std::int64_t tick = 1; tick <= kAfter; ++tick) {
    EXPECT_EQ(drain_tick(*rig, inbox, tick), 5U);
  }
  EXPECT_EQ(drain_tick(*rig, inbox, kAfter + 1), 0U);  // the rest was dropped at tick kAfter
  const TransportStats s = rig->counters().snapshot();
  EXPECT_EQ(s.rx_frames, 5U * kAfter);
  EXPECT_EQ(s.drop_count(DropReason::over_budget), 100U - 5U * kAfter);
  EXPECT_EQ(rig->rx_budget(), 5U);
}

/// A cannelloni peer's datagram of `frames` 8-byte frames of unknown ids.
std::vector<std::uint8_t> datagram(std::uint8_t sequence, int frames) {
  std::vector<std::uint8_t> buffer(1400);
  cannelloni::PacketWriter w(buffer);
  w.begin(sequence);
  for (int i = 0; i < frames; ++i) {
    EXPECT_EQ(w.append(make_frame(0x700 + static_cast<std::uint32_t>(i), {1, 2, 3, 4, 5, 6, 7, 8})),
              cannelloni::PacketWriter::Append::appended);
  }
  const auto bytes = w.finish();
  return {bytes.begin(), bytes.end()};
}

TEST(RxBudget, CannelloniFloodIsDroppedAtTheLinkAndCountedExactly) {
  test::UdpTestSocket peer;
  test::UdpTestSocket stranger;
  const std::uint16_t local = test::UdpTestSocket::free_port();
  const auto rig = open_transport("cannelloni://127.0.0.1:" + std::to_string(peer.port()) +
                                  "?local=127.0.0.1:" + std::to_string(local));
  rig->set_rx_budget(10);
  // A known burst: 20 datagrams from the peer, each as many frames as kShedAfterTicks budgets,
  // 3 from a stranger, 2 malformed
  constexpr int kAfter = static_cast<int>(RxBudget::kShedAfterTicks);
  constexpr int kFrames = 10 * kAfter;
  for (int i = 0; i < 20; ++i) {
    peer.send_to(local, datagram(static_cast<std::uint8_t>(i), kFrames));
  }
  for (int i = 0; i < 3; ++i) stranger.send_to(local, datagram(0, kFrames));
  const std::vector<std::uint8_t> bad_version{3, 0, 20, 0, 1, 0, 0, 7, 0, 0};
  for (int i = 0; i < 2; ++i) peer.send_to(local, bad_version);
  std::this_thread::sleep_for(20ms);

  std::vector<TimedFrame> inbox(256);
  std::size_t handed = 0;
  for (std::int64_t tick = 0; tick < std::int64_t{2} * kAfter; ++tick) {
    const std::size_t n = drain_tick(*rig, inbox, tick);
    EXPECT_LE(n, 10U) << "tick " << tick;
    handed += n;
  }
  // Ticks 0..kAfter-1 handed the first datagram, 10 frames a tick; at the last of them, the
  // kShedAfterTicks-th in a row with the budget spent, the rest of the queue was dropped.
  const TransportStats s = rig->counters().snapshot();
  EXPECT_EQ(handed, std::size_t{kFrames});
  EXPECT_EQ(s.rx_frames, std::size_t{kFrames});
  EXPECT_EQ(s.drop_count(DropReason::over_budget), 19U * kFrames);
  EXPECT_EQ(s.rx_frames + s.drop_count(DropReason::over_budget), 20U * kFrames);  // every frame
  EXPECT_EQ(s.drop_count(DropReason::unknown_peer), 3U);
  EXPECT_EQ(s.drop_count(DropReason::malformed), 2U);
  EXPECT_EQ(s.rx_packets, 25U);
  EXPECT_EQ(s.sequence_lost, 0U);  // the dropped datagrams' sequence numbers were seen
}

TEST(RxBudget, CannelloniWithoutABudgetHandsEverything) {
  test::UdpTestSocket peer;
  const std::uint16_t local = test::UdpTestSocket::free_port();
  const auto rig = open_transport("cannelloni://127.0.0.1:" + std::to_string(peer.port()) +
                                  "?local=127.0.0.1:" + std::to_string(local));
  for (int i = 0; i < 20; ++i) peer.send_to(local, datagram(static_cast<std::uint8_t>(i), 50));
  std::this_thread::sleep_for(20ms);
  std::vector<TimedFrame> inbox(256);
  EXPECT_EQ(drain_tick(*rig, inbox, 0), 1000U);
  EXPECT_EQ(rig->rx_budget(), 0U);
  EXPECT_EQ(rig->counters().snapshot().total_drops(), 0U);
}

TEST(RxBudget, ShedWorkPerTickIsBounded) {
  test::UdpTestSocket peer;
  const std::uint16_t local = test::UdpTestSocket::free_port();
  const auto rig = open_transport("cannelloni://127.0.0.1:" + std::to_string(peer.port()) +
                                  "?local=127.0.0.1:" + std::to_string(local));
  rig->set_rx_budget(1);
  constexpr std::size_t kShed = CannelloniTransport::kMaxShedDatagramsPerTick;
  constexpr std::size_t kAfter = RxBudget::kShedAfterTicks;
  const std::size_t queued = kAfter + kShed + 10;  // well inside the socket's receive buffer
  for (std::size_t i = 0; i < queued; ++i) {
    peer.send_to(local, datagram(static_cast<std::uint8_t>(i), 1));
  }
  std::this_thread::sleep_for(20ms);
  std::vector<TimedFrame> inbox(256);
  for (std::size_t tick = 0; tick + 1 < kAfter; ++tick) {
    EXPECT_EQ(drain_tick(*rig, inbox, static_cast<std::int64_t>(tick)), 1U);
  }
  EXPECT_EQ(rig->counters().snapshot().rx_packets, kAfter - 1);  // a burst: nothing dropped yet
  EXPECT_EQ(drain_tick(*rig, inbox, kAfter - 1), 1U);
  // one datagram read for the tick, then at most kMaxShedDatagramsPerTick dropped
  EXPECT_EQ(rig->counters().snapshot().rx_packets, kAfter + kShed);
  EXPECT_EQ(rig->counters().snapshot().drop_count(DropReason::over_budget), kShed);
  EXPECT_EQ(drain_tick(*rig, inbox, kAfter), 1U);  // the next tick: the 9 left behind it dropped
  const TransportStats s = rig->counters().snapshot();
  EXPECT_EQ(s.rx_frames, kAfter + 1);
  EXPECT_EQ(s.rx_frames + s.drop_count(DropReason::over_budget), queued);
  EXPECT_EQ(s.drop_count(DropReason::kernel_overflow), 0U);
}

TEST(RxBudget, SlcanLinesBeyondTheBudgetAreDroppedAndCounted) {
  test::Pty pty;
  const auto rig = open_transport("slcan:" + pty.slave_path());
  (void)pty.read(7, 2s);  // C, S6, O at open
  rig->set_rx_budget(3);
  std::string lines;
  for (int i = 0; i < 40; ++i) lines += "t7002ABCD\r";  // 40 frames of 11 bytes: one read
  pty.write(lines);
  std::this_thread::sleep_for(20ms);
  std::vector<TimedFrame> inbox(256);
  constexpr std::int64_t kAfter = RxBudget::kShedAfterTicks;
  for (std::int64_t tick = 0; tick < kAfter; ++tick) EXPECT_EQ(drain_tick(*rig, inbox, tick), 3U);
  EXPECT_EQ(drain_tick(*rig, inbox, kAfter), 0U);  // the rest dropped at tick kAfter − 1
  const TransportStats s = rig->counters().snapshot();
  EXPECT_EQ(s.rx_frames, 3U * kAfter);
  EXPECT_EQ(s.rx_frames + s.drop_count(DropReason::over_budget), 40U);
}

}  // namespace
}  // namespace hil::io::can
