// SLCAN over a pseudo-terminal (io/can/transport/slcan_transport.hpp) with the test playing the
// adapter on the master side: the open sequence, classic and CAN FD frames both ways (python-can
// 4.1's slcan has no FD, so FD is tested here), replies, commands, errors, bounded buffers.

#include "io/can/transport/slcan_transport.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "io/can/transport/transport_factory.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/pty_pair.hpp"

namespace hil::io::can {
namespace {

using namespace std::chrono_literals;
using test::frames_of;
using test::make_fd;
using test::make_frame;
using test::make_remote;
using test::Pty;
using test::receive_until;

std::size_t count_lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\r'));
}

TEST(SlcanTransport, OpenClosesSetsTheBitrateAndOpensTheChannel) {
  Pty pty;
  const auto t = open_transport("slcan:" + pty.slave_path() + "?bitrate=250000");
  EXPECT_EQ(pty.read(8, 2s), "C\rS5\rO\r");
}

TEST(SlcanTransport, WithoutABitrateTheAdapterKeepsItsOwn) {
  Pty pty;
  TransportSpec options;
  options.slcan.bitrate.reset();
  const auto t = open_transport("slcan:" + pty.slave_path(), options);
  EXPECT_EQ(pty.read(4, 2s), "C\rO\r");
}

TEST(SlcanTransport, ReceivesClassicAndFdFramesFromTheAdapter) {
  Pty pty;
  const auto t = open_transport("slcan:" + pty.slave_path());
  (void)pty.read(7, 2s);
  pty.write("t1232DEAD\rT18FF00011AB\rr7FF4\rR000000010\r");
  pty.write("d1009000102030405060708090A0B\rB1ABCDEF0F");
  pty.write(std::string(128, '5') + "\rb0010\rD000000005" + "0001020304" + "\r");
  const std::vector<CanFrame> expected{make_frame(0x123, {0xDE, 0xAD}),
                                       make_frame(0x18FF0001, {0xAB}, kExtended),
                                       make_remote(0x7FF, 4),
                                       make_remote(0x1, 0, true),
                                       make_fd(0x100, 12),
                                       [] {
                                         CanFrame f = make_fd(0x1ABCDEF0, 64, kExtended | kBrs);
                                         f.data.fill(0x55);
                                         return f;
                                       }(),
                                       make_fd(0x1, 0, kBrs),
                                       make_fd(0x0, 5, kExtended)};
  const auto got = receive_until(*t, expected.size(), 2s, 3);
  EXPECT_EQ(frames_of(got), expected);
  const TransportStats s = t->counters().snapshot();
  EXPECT_EQ(s.rx_frames, expected.size());
  EXPECT_EQ(s.rx_bytes, 2U + 1 + 0 + 0 + 12 + 64 + 0 + 5);
  EXPECT_EQ(s.rx_packets, expected.size());
  EXPECT_GE(s.last_rx_tick, 3);
  EXPECT_EQ(s.total_drops(), 0U);
}

TEST(SlcanTransport, SendsClassicAndFdFramesAtFlush) {
  Pty pty;
  const auto t = open_transport("slcan:" + pty.slave_path());
  (void)pty.read(7, 2s);
  const std::vector<CanFrame> frames{make_frame(0x123, {0xDE, 0xAD}), make_remote(0x1, 2, true),
                                     make_fd(0x7FF, 16, kBrs), make_fd(0x1FFFFFFF, 1, kExtended)};
  for (const CanFrame& f : frames) EXPECT_EQ(t->send(f, 9), SendStatus::ok);
  EXPECT_EQ(pty.drain(50ms), "");  // nothing before flush
  t->flush(9);
  const std::string expected =
      "t1232DEAD\rR000000012\rb7FFA000102030405060708090A0B0C0D0E0F\r"
      "D1FFFFFFF100\r";
  EXPECT_EQ(pty.read(expected.size(), 2s), expected);
  const TransportStats s = t->counters().snapshot();
  EXPECT_EQ(s.tx_frames, 4U);
  EXPECT_EQ(s.tx_bytes, 2U + 0 + 16 + 1);
  EXPECT_EQ(s.last_tx_tick, 9);
}

TEST(SlcanTransport, AcknowledgesCommandsCountsErrorsAndSkipsGarbage) {
  Pty pty;
  const auto t = open_transport("slcan:" + pty.slave_path());
  (void)pty.read(7, 2s);
  // A host's commands, an OK, transmit acks, a BEL, a malformed and an overlong line, a
  // version reply, then a frame that must come through intact.
  pty.write(
      "O\rS6\r\rz\rZ\r\a"
      "t12\r" +
      std::string(300, 'x') + "\rV1013\rt0011FF\r");
  const auto got = receive_until(*t, 1, 2s);
  EXPECT_EQ(frames_of(got), std::vector<CanFrame>{make_frame(0x001, {0xFF})});
  t->flush(1);
  EXPECT_EQ(pty.read(2, 2s), "\r\r");  // one OK per command
  const TransportStats s = t->counters().snapshot();
  EXPECT_EQ(s.peer_commands, 2U);
  EXPECT_EQ(s.errors, 1U);  // the BEL
  EXPECT_EQ(s.drop_count(DropReason::malformed), 1U);
  EXPECT_EQ(s.drop_count(DropReason::overlong_line), 1U);
  EXPECT_EQ(s.rx_frames, 1U);
}

TEST(SlcanTransport, RefusesErrorFramesAndCountsAFullLineBuffer) {
  Pty pty;
  TransportSpec options;
  options.slcan.tx_buffer_bytes = 0;  // raised to one full FD line: 139 bytes
  const auto t = open_transport("slcan:" + pty.slave_path(), options);
  EXPECT_EQ(t->send(make_frame(0x40, {0, 0, 0, 0, 0, 0, 0, 0}, kError), 0),
            SendStatus::unsupported);
  const CanFrame eight = make_frame(0x123, {1, 2, 3, 4, 5, 6, 7, 8});  // 22 bytes a line
  for (int i = 0; i < 6; ++i) EXPECT_EQ(t->send(eight, 0), SendStatus::ok);
  EXPECT_EQ(t->send(eight, 0), SendStatus::back_pressure);
  const TransportStats s = t->counters().snapshot();
  EXPECT_EQ(s.drop_count(DropReason::unsupported), 1U);
  EXPECT_EQ(s.drop_count(DropReason::back_pressure), 1U);
  EXPECT_EQ(s.tx_frames, 6U);
}

TEST(SlcanTransport, ShortWritesKeepTheRestAndNeverCutALine) {
  Pty pty;
  const auto t = open_transport("slcan:" + pty.slave_path());
  (void)pty.read(7, 2s);
  // Fill the pty until it refuses bytes, without reading the master side.
  std::size_t accepted = 0;
  for (std::int64_t tick = 0; tick < 2000; ++tick) {
    for (int i = 0; i < 16; ++i) {
      const auto id = static_cast<std::uint32_t>(accepted % 0x800);
      if (t->send(make_fd(id, 64, kBrs, static_cast<std::uint8_t>(accepted)), tick) ==
          SendStatus::ok) {
        ++accepted;
      }
    }
    t->flush(tick);
    if (t->counters().snapshot().drop_count(DropReason::back_pressure) > 0) break;
  }
  ASSERT_GT(t->counters().snapshot().drop_count(DropReason::back_pressure), 0U)
      << "the pty never filled up";
  // Now read the master side while flushing: every accepted frame arrives whole, in order.
  std::string lines;
  for (int i = 0; i < 5000 && count_lines(lines) < accepted; ++i) {
    lines += pty.read(1, 1ms);
    t->flush(i);
  }
  ASSERT_EQ(count_lines(lines), accepted);
  std::size_t start = 0;
  for (std::size_t k = 0; k < accepted; ++k) {
    const std::size_t end = lines.find('\r', start);
    CanFrame f;
    ASSERT_EQ(slcan::parse_line(std::string_view(lines).substr(start, end - start), f),
              slcan::LineKind::frame);
    EXPECT_EQ(
        f, make_fd(static_cast<std::uint32_t>(k % 0x800), 64, kBrs, static_cast<std::uint8_t>(k)));
    start = end + 1;
  }
}

TEST(SlcanTransport, OpenErrorsNameTheDeviceAndTheCause) {
  try {
    (void)open_transport("slcan:/dev/hil-no-such-tty");
    FAIL() << "opening a missing device must fail";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("slcan:/dev/hil-no-such-tty: cannot open /dev/hil-no-such-tty"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("plugged in"), std::string::npos) << m;
  }
  try {
    (void)open_transport("slcan:/dev/null");
    FAIL() << "/dev/null is no tty";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a tty"), std::string::npos) << e.what();
  }
  Pty pty;
  EXPECT_THROW((void)open_transport("slcan:" + pty.slave_path() + "?bitrate=83300"),
               std::invalid_argument);
  EXPECT_THROW((void)open_transport("slcan:" + pty.slave_path() + "?baud=1234"),
               std::invalid_argument);
}

}  // namespace
}  // namespace hil::io::can
