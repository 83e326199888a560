// Two ISO-TP Links (io/can/isotp/link) on one simulated bus, a tester and a server: messages
// of every size class go both ways over classic CAN and CAN FD; the sender honours the
// receiver's block size and STmin (timestamps on the wire); padding, extended addressing,
// 29-bit identifiers and functional requests look as the standard says.

#include "io/can/isotp/link.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/io/can/isotp/isotp_test_support.hpp"

namespace hil::io::can::isotp {
namespace {

using test::kMs;
using test::kUs;
using test::Logged;
using test::message;
using Bytes = std::vector<std::uint8_t>;

/// Sends `m` from `from` and steps the wire until `to` has a message; returns it.
std::optional<Bytes> transfer(test::Wire& wire, Link& from, Link& to, const Bytes& m,
                              std::int64_t& now, std::int64_t tick = 250 * kUs) {
  EXPECT_TRUE(from.send(m, now));
  std::optional<Bytes> got;
  now = wire.run(now, tick, now + 60'000 * kMs, [&] { return (got = test::take(to)).has_value(); });
  now += tick;
  return got;
}

struct Case {
  bool fd;
  std::size_t size;
};

class IsotpLoopback : public ::testing::TestWithParam<Case> {};

TEST_P(IsotpLoopback, RequestAndResponseArriveWhole) {
  LinkSpec server = test::server_spec();
  server.fd = GetParam().fd;
  server.tx_dl = GetParam().fd ? 64 : 8;
  Link ecu(server);
  Link tester(test::tester_of(server));
  test::Wire wire(tester, ecu);
  std::int64_t now = 0;

  const Bytes request = message(GetParam().size, 1);
  EXPECT_EQ(transfer(wire, tester, ecu, request, now), request);
  const Bytes response = message(GetParam().size, 2);
  EXPECT_EQ(transfer(wire, ecu, tester, response, now), response);

  for (const Link* link : {&ecu, &tester}) {
    const Counters& c = link->counters();
    EXPECT_EQ(c.rx_messages, 1U);
    EXPECT_EQ(c.tx_messages, 1U);
    EXPECT_EQ(c.malformed + c.unexpected + c.wrong_sequence + c.overflow, 0U);
    EXPECT_EQ(c.timeout_as + c.timeout_bs + c.timeout_cr, 0U);
    EXPECT_FALSE(link->busy_sending());
    EXPECT_FALSE(link->busy_receiving());
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, IsotpLoopback,
                         ::testing::Values(Case{false, 1}, Case{false, 7}, Case{false, 8},
                                           Case{false, 62}, Case{false, 200}, Case{false, 4095},
                                           Case{true, 1}, Case{true, 7}, Case{true, 8},
                                           Case{true, 62}, Case{true, 200}, Case{true, 4095}),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           const Case& c = param_info.param;
                           return std::string(c.fd ? "fd_" : "classic_") + std::to_string(c.size);
                         });

TEST(IsotpLink, MessagesBeyond4095UseTheEscapeFirstFrame) {
  for (const bool fd : {false, true}) {
    LinkSpec server = test::server_spec();
    server.fd = fd;
    server.tx_dl = fd ? 64 : 8;
    server.max_message_bytes = 10'000;
    Link ecu(server);
    Link tester(test::tester_of(server));
    std::vector<Logged> log;
    test::Wire wire(tester, ecu, &log);
    std::int64_t now = 0;
    const Bytes big = message(5000, 3);
    EXPECT_EQ(transfer(wire, tester, ecu, big, now), big) << fd;
    ASSERT_FALSE(log.empty());
    const CanFrame& ff = log.front().frame;
    EXPECT_EQ((Bytes{ff.data.begin(), ff.data.begin() + 6}),
              (Bytes{0x10, 0x00, 0x00, 0x00, 0x13, 0x88}));  // 5000
  }
}

/// The tester's frames of a 200-byte request to a server asking BS `bs`, STmin `st_min`
/// (the tester adding `margin_ns` to it).
std::vector<Logged> paced_request(std::uint8_t bs, std::uint8_t st_min, std::int64_t tick,
                                  std::int64_t margin_ns = 0) {
  LinkSpec server = test::server_spec();
  server.block_size = bs;
  server.st_min = st_min;
  Link ecu(server);
  LinkSpec tester_spec = test::tester_of(server);
  tester_spec.st_min_margin_ns = margin_ns;
  Link tester(tester_spec);
  std::vector<Logged> log;
  test::Wire wire(tester, ecu, &log);
  std::int64_t now = 0;
  EXPECT_EQ(transfer(wire, tester, ecu, message(200), now, tick), message(200));
  return log;
}

TEST(IsotpLink, SenderHonoursBlockSizeAndStMin) {
  const std::vector<Logged> log = paced_request(4, 5, 250 * kUs);
  // FF, FC, then 28 CFs (194 bytes, 7 a frame) in blocks of 4, an FC after each but the last
  std::string kinds;
  for (const Logged& l : log) kinds += test::pci_type(l.frame) == 3 ? 'f' : 'd';
  const std::string block = "dddd";
  EXPECT_EQ(kinds, "df" + block + "f" + block + "f" + block + "f" + block + "f" + block + "f" +
                       block + "f" + block);
  const Logged* previous = nullptr;
  int in_block = 0;
  for (const Logged& l : log) {
    if (test::pci_type(l.frame) == 3) {  // our FC: BS 4, STmin 5 ms
      EXPECT_FALSE(l.from_tester);
      EXPECT_EQ((Bytes{l.frame.data.begin(), l.frame.data.begin() + 3}), (Bytes{0x30, 4, 5}));
      previous = nullptr;
      in_block = 0;
      continue;
    }
    if (test::pci_type(l.frame) != 2) continue;
    if (previous != nullptr) {
      EXPECT_GE(l.t - previous->t, 5 * kMs);
      EXPECT_LE(l.t - previous->t, 5 * kMs + 250 * kUs);  // and not much slower
    }
    previous = &l;
    EXPECT_LE(++in_block, 4);
  }
}

TEST(IsotpLink, StMinInMicroseconds) {
  const std::vector<Logged> log = paced_request(0, 0xF3, 100 * kUs);  // 300 µs
  std::vector<std::int64_t> cf_times;
  for (const Logged& l : log) {
    if (test::pci_type(l.frame) == 2) cf_times.push_back(l.t);
  }
  ASSERT_EQ(cf_times.size(), 28U);
  for (std::size_t i = 1; i < cf_times.size(); ++i) {
    EXPECT_EQ(cf_times[i] - cf_times[i - 1], 300 * kUs) << i;
  }
}

TEST(IsotpLink, AStMinMarginWidensTheGapByItsTicks) {
  // the built-in ECU's margin of one period: 5 ms asked, 5.25 ms between CFs at 250 µs
  const std::vector<Logged> log = paced_request(0, 5, 250 * kUs, 250 * kUs);
  std::vector<std::int64_t> cf_times;
  for (const Logged& l : log) {
    if (test::pci_type(l.frame) == 2) cf_times.push_back(l.t);
  }
  ASSERT_EQ(cf_times.size(), 28U);
  for (std::size_t i = 1; i < cf_times.size(); ++i) {
    EXPECT_EQ(cf_times[i] - cf_times[i - 1], 5 * kMs + 250 * kUs) << i;
  }
}

TEST(IsotpLink, StMinZeroSendsBackToBack) {
  const std::vector<Logged> log = paced_request(0, 0, 1 * kMs);
  // 28 CFs at 8 frames per poll: 4 ticks after the FC
  EXPECT_EQ(log.back().t - log.front().t, 4 * kMs);
}

TEST(IsotpLink, PaddingFillsEveryFrameToTxDl) {
  LinkSpec spec = test::server_spec();
  spec.padding = 0x55;
  Link link(spec);
  std::array<CanFrame, 4> out{};
  ASSERT_TRUE(link.send(Bytes{0x62, 0xF1, 0x90}, 0));
  ASSERT_EQ(link.poll(0, out), 1U);
  EXPECT_EQ(out[0], test::make_frame(0x7E8, {0x03, 0x62, 0xF1, 0x90, 0x55, 0x55, 0x55, 0x55}));

  spec.padding.reset();
  Link shortest(spec);
  ASSERT_TRUE(shortest.send(Bytes{0x62, 0xF1, 0x90}, 0));
  ASSERT_EQ(shortest.poll(0, out), 1U);
  EXPECT_EQ(out[0], test::make_frame(0x7E8, {0x03, 0x62, 0xF1, 0x90}));
  // our FC is 3 bytes then
  shortest.on_frame(test::make_frame(0x7E0, {0x10, 0x09, 1, 2, 3, 4, 5, 6}), 0);
  ASSERT_EQ(shortest.poll(0, out), 1U);
  EXPECT_EQ(out[0], test::make_frame(0x7E8, {0x30, 0x00, 0x00}));
}

TEST(IsotpLink, FdSingleFramesUseTheEscapeAboveEightBytes) {
  LinkSpec spec = test::server_spec();
  spec.fd = true;
  spec.tx_dl = 64;
  Link padded(spec);
  std::array<CanFrame, 1> out{};
  ASSERT_TRUE(padded.send(Bytes{0x7E, 0x00}, 0));
  ASSERT_EQ(padded.poll(0, out), 1U);
  EXPECT_EQ(out[0].length, 64U);
  EXPECT_EQ(out[0].flags, kFd | kBrs);
  EXPECT_EQ((Bytes{out[0].data.begin(), out[0].data.begin() + 5}),
            (Bytes{0x00, 0x02, 0x7E, 0x00, 0xCC}));

  spec.padding.reset();
  Link shortest(spec);
  ASSERT_TRUE(shortest.send(Bytes{0x7E, 0x00}, 0));  // fits the short form in 3 bytes
  ASSERT_EQ(shortest.poll(0, out), 1U);
  EXPECT_EQ(out[0], test::make_frame(0x7E8, {0x02, 0x7E, 0x00}, kFd | kBrs));
  ASSERT_TRUE(shortest.send(message(20), 0));  // 22 bytes round up to DLC 12 = 24 bytes
  ASSERT_EQ(shortest.poll(0, out), 1U);
  EXPECT_EQ(out[0].length, 24U);
  EXPECT_EQ(out[0].data[0], 0x00);
  EXPECT_EQ(out[0].data[1], 20);
  EXPECT_EQ(out[0].data[22], 0xCC);
  EXPECT_EQ(out[0].data[23], 0xCC);
}

TEST(IsotpLink, LastConsecutiveFrameIsShortWithoutPadding) {
  LinkSpec server = test::server_spec();
  server.padding.reset();
  Link ecu(server);
  Link tester(test::tester_of(server));
  std::vector<Logged> log;
  test::Wire wire(tester, ecu, &log);
  std::int64_t now = 0;
  EXPECT_EQ(transfer(wire, tester, ecu, message(10), now), message(10));
  ASSERT_EQ(log.size(), 3U);           // FF (6 bytes), FC, CF (4 bytes)
  EXPECT_EQ(log[0].frame.length, 8U);  // a first frame is always whole
  EXPECT_EQ(log[2].frame.length, 5U);  // PCI + 4
}

TEST(IsotpLink, ExtendedAddressing) {
  LinkSpec server = test::server_spec();
  server.addressing = Addressing::extended;
  server.tx_address = 0xF1;  // to the tester
  server.rx_address = 0x10;  // our own address
  Link ecu(server);
  Link tester(test::tester_of(server));
  std::vector<Logged> log;
  test::Wire wire(tester, ecu, &log);
  std::int64_t now = 0;
  EXPECT_EQ(transfer(wire, tester, ecu, message(200), now), message(200));
  EXPECT_EQ(transfer(wire, ecu, tester, message(6), now), message(6));  // 6 fit one SF
  for (const Logged& l : log) EXPECT_EQ(l.frame.data[0], l.from_tester ? 0x10 : 0xF1);
  EXPECT_EQ(log.back().frame.data[1], 0x06);

  // addressed to another node on the same identifier: not ours
  ecu.on_frame(test::make_frame(0x7E0, {0x11, 0x02, 0x3E, 0x00}), now);
  EXPECT_FALSE(ecu.take_received());
  EXPECT_EQ(ecu.counters().ignored_other_address, 1U);
}

TEST(IsotpLink, TwentyNineBitIdentifiers) {
  LinkSpec server = test::server_spec();
  server.extended_ids = true;
  server.rx_id = 0x18DA10F1;
  server.tx_id = 0x18DAF110;
  Link ecu(server);
  Link tester(test::tester_of(server));
  std::vector<Logged> log;
  test::Wire wire(tester, ecu, &log);
  std::int64_t now = 0;
  EXPECT_EQ(transfer(wire, tester, ecu, message(100), now), message(100));
  for (const Logged& l : log) EXPECT_TRUE(l.frame.extended());
  // the same number as an 11-bit identifier is another identifier
  LinkSpec small = test::server_spec();
  small.extended_ids = true;
  Link ecu29(small);
  ecu29.on_frame(test::make_frame(0x7E0, {0x02, 0x3E, 0x00}), 0);
  EXPECT_FALSE(ecu29.take_received());
  EXPECT_EQ(ecu29.counters().ignored_other_ids, 1U);
}

TEST(IsotpLink, FunctionalSingleFramesAreFlagged) {
  LinkSpec server = test::server_spec();
  server.functional_rx_id = 0x7DF;
  Link ecu(server);
  ecu.on_frame(test::make_frame(0x7DF, {0x02, 0x3E, 0x80, 0xCC, 0xCC, 0xCC, 0xCC, 0xCC}), 0);
  auto r = ecu.take_received();
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->functional);
  EXPECT_EQ(Bytes(r->data.begin(), r->data.end()), (Bytes{0x3E, 0x80}));
  ecu.on_frame(test::make_frame(0x7E0, {0x02, 0x3E, 0x80}), 0);
  r = ecu.take_received();
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->functional);
  // functional addressing carries single frames only: a first frame gets no flow control
  ecu.on_frame(test::make_frame(0x7DF, {0x10, 0x09, 1, 2, 3, 4, 5, 6}), 0);
  std::array<CanFrame, 2> out{};
  EXPECT_EQ(ecu.poll(0, out), 0U);
  EXPECT_EQ(ecu.counters().unexpected, 1U);
  EXPECT_EQ(ecu.counters().rx_functional, 1U);
  EXPECT_EQ(ecu.counters().rx_messages, 2U);
}

TEST(IsotpLink, ReceivedMessageIsTakenOnce) {
  Link ecu(test::server_spec());
  ecu.on_frame(test::make_frame(0x7E0, {0x01, 0x11}), 0);
  EXPECT_TRUE(ecu.take_received());
  EXPECT_FALSE(ecu.take_received());
  // two before taking: the second replaces the first, counted
  ecu.on_frame(test::make_frame(0x7E0, {0x01, 0x22}), 0);
  ecu.on_frame(test::make_frame(0x7E0, {0x01, 0x33}), 0);
  EXPECT_EQ(test::take(ecu), Bytes{0x33});
  EXPECT_EQ(ecu.counters().rx_unread, 1U);
}

TEST(IsotpLink, SendRefusesWhileBusyEmptyOrTooLong) {
  LinkSpec spec = test::server_spec();
  spec.max_message_bytes = 100;
  Link link(spec);
  EXPECT_FALSE(link.send({}, 0));
  EXPECT_FALSE(link.send(message(101), 0));
  EXPECT_TRUE(link.send(message(50), 0));
  EXPECT_TRUE(link.busy_sending());
  EXPECT_FALSE(link.send(message(5), 0));
  EXPECT_EQ(link.counters().tx_rejected, 3U);
}

}  // namespace
}  // namespace hil::io::can::isotp
