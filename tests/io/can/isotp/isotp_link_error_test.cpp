// An ISO-TP Link (io/can/isotp/link) against hand-made peer frames: N_As, N_Bs and N_Cr
// expire at exactly their time; FC WAIT, OVFLW and reserved values; our FC overflow for a
// message too long; a wrong SN; frames the standard says to ignore or that abort a reception;
// and specs the constructor refuses.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "io/can/isotp/link.hpp"
#include "tests/io/can/isotp/isotp_test_support.hpp"

namespace hil::io::can::isotp {
namespace {

using test::kMs;
using test::make_frame;
using test::message;
using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kRx = 0x7E0;      // what the server link receives on
constexpr std::int64_t kN = 1'000 * kMs;  // every N_ timeout's default

CanFrame fc(std::uint8_t status, std::uint8_t bs = 0, std::uint8_t st_min = 0) {
  return make_frame(
      kRx, {static_cast<std::uint8_t>(0x30 | status), bs, st_min, 0xCC, 0xCC, 0xCC, 0xCC, 0xCC});
}
// A 20-byte message from the peer: FF (6 bytes) and CF 1, 2 (7 bytes each)
constexpr CanFrame kFirst = make_frame(kRx, {0x10, 0x14, 1, 2, 3, 4, 5, 6});
constexpr CanFrame kCf1 = make_frame(kRx, {0x21, 7, 8, 9, 10, 11, 12, 13});
constexpr CanFrame kCf2 = make_frame(kRx, {0x22, 14, 15, 16, 17, 18, 19, 20});

std::size_t poll(Link& link, std::int64_t now) {
  std::array<CanFrame, 8> out{};
  return link.poll(now, out);
}

/// A server link that sent the first frame of a 30-byte message at 0.
Link sending(LinkSpec spec = test::server_spec()) {
  Link link(spec);
  EXPECT_TRUE(link.send(message(30), 0));
  EXPECT_EQ(poll(link, 0), 1U);
  return link;
}

TEST(IsotpTimeouts, NBsAtExactlyItsTime) {
  Link link = sending();
  EXPECT_EQ(poll(link, kN - 1), 0U);
  EXPECT_TRUE(link.busy_sending());
  EXPECT_EQ(poll(link, kN), 0U);
  EXPECT_FALSE(link.busy_sending());
  EXPECT_EQ(link.counters().timeout_bs, 1U);
  link.on_frame(fc(0), kN);  // too late
  EXPECT_EQ(poll(link, kN), 0U);
  EXPECT_EQ(link.counters().unexpected, 1U);
}

TEST(IsotpTimeouts, NBsAfterEachBlock) {
  Link link = sending();
  link.on_frame(fc(0, 2), 10 * kMs);
  EXPECT_EQ(poll(link, 10 * kMs), 2U);  // a block of 2, then wait for the next FC
  EXPECT_EQ(poll(link, 10 * kMs + kN - 1), 0U);
  EXPECT_TRUE(link.busy_sending());
  (void)poll(link, 10 * kMs + kN);
  EXPECT_FALSE(link.busy_sending());
  EXPECT_EQ(link.counters().timeout_bs, 1U);
}

TEST(IsotpTimeouts, NCrAtExactlyItsTime) {
  Link link(test::server_spec());
  link.on_frame(kFirst, 0);
  EXPECT_EQ(poll(link, 0), 1U);  // our FC
  link.on_frame(kCf1, 10 * kMs);
  EXPECT_EQ(poll(link, 10 * kMs + kN - 1), 0U);
  EXPECT_TRUE(link.busy_receiving());
  link.on_frame(kCf2, 10 * kMs + kN);  // too late: the reception is gone
  EXPECT_FALSE(link.busy_receiving());
  EXPECT_FALSE(link.take_received());
  EXPECT_EQ(link.counters().timeout_cr, 1U);
  EXPECT_EQ(link.counters().unexpected, 1U);
}

TEST(IsotpTimeouts, NCrRunsFromOurFlowControl) {
  Link link(test::server_spec());
  link.on_frame(kFirst, 0);
  EXPECT_EQ(poll(link, 5 * kMs), 1U);  // the FC leaves 5 ms later
  (void)poll(link, 5 * kMs + kN - 1);
  EXPECT_TRUE(link.busy_receiving());
  (void)poll(link, 5 * kMs + kN);
  EXPECT_FALSE(link.busy_receiving());
  EXPECT_EQ(link.counters().timeout_cr, 1U);
}

TEST(IsotpTimeouts, NAsWhenADueFrameIsNotTaken) {
  Link taken(test::server_spec());
  ASSERT_TRUE(taken.send(message(3), 0));
  EXPECT_EQ(poll(taken, kN - 1), 1U);
  EXPECT_EQ(taken.counters().tx_messages, 1U);

  Link left(test::server_spec());
  ASSERT_TRUE(left.send(message(3), 0));
  EXPECT_EQ(left.poll(kN / 2, {}), 0U);  // no room: still due
  EXPECT_TRUE(left.busy_sending());
  EXPECT_EQ(poll(left, kN), 0U);
  EXPECT_FALSE(left.busy_sending());
  EXPECT_EQ(left.counters().timeout_as, 1U);
}

TEST(IsotpFlowControl, WaitRestartsNBsUpToTheLimit) {
  LinkSpec spec = test::server_spec();
  spec.max_wait_frames = 2;
  Link link = sending(spec);
  link.on_frame(fc(1), 900 * kMs);
  (void)poll(link, 1500 * kMs);  // past the first N_Bs
  EXPECT_TRUE(link.busy_sending());
  link.on_frame(fc(1), 1800 * kMs);
  EXPECT_TRUE(link.busy_sending());
  link.on_frame(fc(1), 2700 * kMs);  // the third in a row
  EXPECT_FALSE(link.busy_sending());
  EXPECT_EQ(link.counters().wait_limit, 1U);
  EXPECT_EQ(link.counters().timeout_bs, 0U);
}

TEST(IsotpFlowControl, WaitThenContinue) {
  Link link = sending();
  link.on_frame(fc(1), 100 * kMs);
  EXPECT_EQ(poll(link, 100 * kMs), 0U);
  link.on_frame(fc(0), 200 * kMs);
  EXPECT_EQ(poll(link, 200 * kMs), 4U);  // 24 bytes in 4 CFs
  EXPECT_EQ(link.counters().tx_messages, 1U);
}

TEST(IsotpFlowControl, PeerOverflowAbortsSending) {
  Link link = sending();
  link.on_frame(fc(2), 10 * kMs);
  EXPECT_FALSE(link.busy_sending());
  EXPECT_EQ(poll(link, 10 * kMs), 0U);
  EXPECT_EQ(link.counters().peer_overflow, 1U);
}

TEST(IsotpFlowControl, ReservedFlowStatusAbortsSending) {
  Link link = sending();
  link.on_frame(fc(5), 10 * kMs);
  EXPECT_FALSE(link.busy_sending());
  EXPECT_EQ(link.counters().invalid_flow_status, 1U);
}

TEST(IsotpFlowControl, ReservedStMinCountsAs127Ms) {
  Link link = sending();
  link.on_frame(fc(0, 0, 0x80), 0);
  EXPECT_EQ(poll(link, 0), 1U);
  EXPECT_EQ(poll(link, 127 * kMs - 1), 0U);
  EXPECT_EQ(poll(link, 127 * kMs), 1U);
}

TEST(IsotpFlowControl, FirstFlowControlParametersHoldForTheMessage) {
  Link link = sending();
  link.on_frame(fc(0, 1, 0), 0);  // BS 1, STmin 0
  EXPECT_EQ(poll(link, 0), 1U);
  link.on_frame(fc(0, 0, 0x7F), 1 * kMs);  // BS and STmin of later FCs do not count
  EXPECT_EQ(poll(link, 1 * kMs), 1U);
  EXPECT_EQ(poll(link, 2 * kMs), 0U);  // still a block of one
  link.on_frame(fc(0), 3 * kMs);
  EXPECT_EQ(poll(link, 3 * kMs), 1U);
}

TEST(IsotpFlowControl, FlowControlOutsideASendingIsIgnored) {
  Link link(test::server_spec());
  link.on_frame(fc(0), 0);
  EXPECT_EQ(link.counters().unexpected, 1U);
}

TEST(IsotpReception, TooLongIsAnsweredOverflow) {
  LinkSpec spec = test::server_spec();
  spec.max_message_bytes = 100;
  Link link(spec);
  link.on_frame(make_frame(kRx, {0x10, 200, 1, 2, 3, 4, 5, 6}), 0);
  std::array<CanFrame, 2> out{};
  ASSERT_EQ(link.poll(0, out), 1U);
  EXPECT_EQ(out[0], make_frame(0x7E8, {0x32, 0x00, 0x00, 0xCC, 0xCC, 0xCC, 0xCC, 0xCC}));
  EXPECT_FALSE(link.busy_receiving());
  EXPECT_EQ(link.counters().overflow, 1U);
  link.on_frame(kCf1, 0);
  EXPECT_EQ(link.counters().unexpected, 1U);
  // a single frame longer than the buffer is dropped too
  LinkSpec tiny = test::server_spec();
  tiny.max_message_bytes = 2;
  Link small(tiny);
  small.on_frame(make_frame(kRx, {0x03, 1, 2, 3}), 0);
  EXPECT_FALSE(small.take_received());
  EXPECT_EQ(small.counters().overflow, 1U);
}

TEST(IsotpReception, OverflowEndToEnd) {
  LinkSpec server = test::server_spec();
  server.max_message_bytes = 100;
  Link ecu(server);
  LinkSpec tester_spec = test::tester_of(server);
  tester_spec.max_message_bytes = 4095;
  Link tester(tester_spec);
  test::Wire wire(tester, ecu);
  ASSERT_TRUE(tester.send(message(200), 0));
  wire.step(0);
  EXPECT_FALSE(tester.busy_sending());
  EXPECT_EQ(tester.counters().peer_overflow, 1U);
  EXPECT_EQ(ecu.counters().overflow, 1U);
}

TEST(IsotpReception, WrongSequenceNumberAborts) {
  Link link(test::server_spec());
  link.on_frame(kFirst, 0);
  link.on_frame(kCf2, 1 * kMs);  // SN 2 where 1 was due
  EXPECT_FALSE(link.busy_receiving());
  EXPECT_EQ(link.counters().wrong_sequence, 1U);
  link.on_frame(kCf1, 2 * kMs);
  EXPECT_FALSE(link.take_received());
  EXPECT_EQ(link.counters().unexpected, 1U);
  EXPECT_EQ(poll(link, 2 * kMs), 0U);  // the FC for the aborted reception is not sent
}

TEST(IsotpReception, ConsecutiveFrameWithoutReceptionIsIgnored) {
  Link link(test::server_spec());
  link.on_frame(kCf1, 0);
  EXPECT_FALSE(link.take_received());
  EXPECT_EQ(link.counters().unexpected, 1U);
}

TEST(IsotpReception, NewSingleFrameAbortsAndIsDelivered) {
  Link link(test::server_spec());
  link.on_frame(kFirst, 0);
  link.on_frame(kCf1, 1 * kMs);
  link.on_frame(make_frame(kRx, {0x02, 0x3E, 0x00}), 2 * kMs);
  EXPECT_EQ(test::take(link), (Bytes{0x3E, 0x00}));
  EXPECT_FALSE(link.busy_receiving());
  EXPECT_EQ(link.counters().rx_interrupted, 1U);
  link.on_frame(kCf2, 3 * kMs);
  EXPECT_EQ(link.counters().unexpected, 1U);
}

TEST(IsotpReception, NewFirstFrameStartsAgain) {
  Link link(test::server_spec());
  link.on_frame(make_frame(kRx, {0x10, 0x0A, 9, 9, 9, 9, 9, 9}), 0);
  link.on_frame(kFirst, 1 * kMs);
  link.on_frame(kCf1, 2 * kMs);
  link.on_frame(kCf2, 3 * kMs);
  Bytes expected(20);
  for (std::size_t i = 0; i < 20; ++i) expected[i] = static_cast<std::uint8_t>(i + 1);
  EXPECT_EQ(test::take(link), expected);
  EXPECT_EQ(link.counters().rx_interrupted, 1U);
}

TEST(IsotpReception, MalformedFramesAreCountedAndIgnored) {
  Link link(test::server_spec());
  CanFrame remote = make_frame(kRx, {});
  remote.flags = kRemote;
  remote.length = 8;
  CanFrame fd = make_frame(kRx, {0x02, 0x3E, 0x00}, kFd);
  CanFrame too_long = make_frame(kRx, {0x02, 0x3E, 0x00});
  too_long.length = 12;  // a classic frame cannot
  const std::vector<CanFrame> bad{
      make_frame(kRx, {0x00, 0x3E}),                    // SF_DL 0
      make_frame(kRx, {0x05, 0x3E, 0x00}),              // SF_DL beyond the frame
      make_frame(kRx, {0x40, 1, 2, 3, 4, 5, 6, 7}),     // reserved PCI type
      make_frame(kRx, {}),                              // empty
      make_frame(kRx, {0x10, 0x07, 1, 2, 3, 4, 5, 6}),  // FF_DL below FF_DLmin
      make_frame(kRx, {0x10, 0x14, 1, 2, 3}),           // FF not filling its frame
      remote,
      fd,
      too_long};
  for (const CanFrame& f : bad) link.on_frame(f, 0);
  EXPECT_FALSE(link.take_received());
  EXPECT_FALSE(link.busy_receiving());
  EXPECT_EQ(poll(link, 0), 0U);
  EXPECT_EQ(link.counters().malformed, bad.size());
  link.on_frame(make_frame(0x123, {0x02, 0x3E, 0x00}), 0);
  EXPECT_EQ(link.counters().ignored_other_ids, 1U);
}

TEST(IsotpReception, ConsecutiveFramesKeepTheFirstFramesLength) {
  Link link(test::server_spec());
  link.on_frame(kFirst, 0);
  link.on_frame(make_frame(kRx, {0x21, 7, 8, 9, 10}), 1 * kMs);  // short but not the last
  EXPECT_EQ(link.counters().malformed, 1U);
  EXPECT_TRUE(link.busy_receiving());
  link.on_frame(kCf1, 2 * kMs);
  link.on_frame(make_frame(kRx, {0x22, 14, 15, 16, 17, 18, 19, 20}), 3 * kMs);  // the last
  EXPECT_TRUE(test::take(link));

  LinkSpec spec = test::server_spec();
  spec.fd = true;
  Link fd_link(spec);  // a classic first frame sets RX_DL = 8: a 12-byte CF is too long
  fd_link.on_frame(kFirst, 0);
  CanFrame long_cf = make_frame(kRx, {0x21, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, kFd);
  fd_link.on_frame(long_cf, 1 * kMs);
  EXPECT_EQ(fd_link.counters().malformed, 1U);
  EXPECT_TRUE(fd_link.busy_receiving());
}

TEST(IsotpSpec, BadSpecsAreRefused) {
  const auto refused = [](auto&& change) {
    LinkSpec s = test::server_spec();
    change(s);
    EXPECT_FALSE(validate(s).empty());
    EXPECT_THROW(Link{s}, std::invalid_argument);
  };
  refused([](LinkSpec& s) { s.tx_dl = 12; });  // classic
  refused([](LinkSpec& s) {
    s.fd = true;
    s.tx_dl = 10;
  });
  refused([](LinkSpec& s) { s.st_min = 0x80; });
  refused([](LinkSpec& s) { s.tx_id = s.rx_id; });
  refused([](LinkSpec& s) { s.rx_id = 0x800; });
  refused([](LinkSpec& s) { s.functional_rx_id = s.rx_id; });
  refused([](LinkSpec& s) { s.n_bs_ns = 0; });
  refused([](LinkSpec& s) { s.max_message_bytes = 0; });
  EXPECT_EQ(validate(test::server_spec()), "");
}

}  // namespace
}  // namespace hil::io::can::isotp
