// cannelloni over UDP loopback (io/can/transport/cannelloni_transport.hpp): two transports as each
// other's peer, batching into packets, and a hand-driven peer socket for unknown peers,
// oversized, truncated and malformed datagrams and sequence gaps.

#include "io/can/transport/cannelloni_transport.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "io/can/transport/transport_factory.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/udp_test_socket.hpp"

namespace hil::io::can {
namespace {

using namespace std::chrono_literals;
using test::frames_of;
using test::make_fd;
using test::make_frame;
using test::make_remote;
using test::receive_until;
using test::UdpTestSocket;

std::string uri_between(std::uint16_t peer, std::uint16_t local, const std::string& extra = "") {
  return "cannelloni://127.0.0.1:" + std::to_string(peer) +
         "?local=127.0.0.1:" + std::to_string(local) + extra;
}

std::vector<std::uint8_t> packet(std::uint8_t sequence, const std::vector<CanFrame>& frames) {
  std::vector<std::uint8_t> buffer(1400);
  cannelloni::PacketWriter writer(buffer);
  writer.begin(sequence);
  for (const CanFrame& f : frames)
    EXPECT_EQ(writer.append(f), cannelloni::PacketWriter::Append::appended);
  const auto bytes = writer.finish();
  return {bytes.begin(), bytes.end()};
}

/// A transport whose peer is a socket the test drives by hand.
struct HandPeer {
  explicit HandPeer(const TransportSpec& options = {})
      : transport(open_transport(uri_between(peer.port(), 0), options)),
        port(dynamic_cast<const CannelloniTransport&>(*transport).local_port()) {}
  void send(std::span<const std::uint8_t> bytes) const { peer.send_to(port, bytes); }

  UdpTestSocket peer;
  std::unique_ptr<Transport> transport;
  std::uint16_t port;
};

TEST(CannelloniTransport, LoopbackRoundTripBothWaysWithCounters) {
  const std::uint16_t port_a = UdpTestSocket::free_port();
  const std::uint16_t port_b = UdpTestSocket::free_port();
  const auto a = open_transport(uri_between(port_b, port_a));
  const auto b = open_transport(uri_between(port_a, port_b));
  const std::vector<CanFrame> frames{make_frame(0x123, {1, 2, 3, 4, 5, 6, 7, 8}),
                                     make_frame(0x1FFFFFFF, {0xAB}, kExtended),
                                     make_remote(0x7FF, 3),
                                     make_remote(0x100, 8, true),
                                     make_fd(0x200, 64, kBrs),
                                     make_fd(0x18DA00F1, 12, kExtended | kEsi),
                                     make_frame(0x0, {})};
  for (const CanFrame& f : frames) EXPECT_EQ(a->send(f, 5), SendStatus::ok);
  a->flush(5);

  const auto got = receive_until(*b, frames.size(), 2s, 6);
  EXPECT_EQ(frames_of(got), frames);
  for (const TimedFrame& t : got) EXPECT_GT(t.timestamp_ns, 0);

  const std::uint64_t payload = 8 + 1 + 0 + 0 + 64 + 12 + 0;
  const TransportStats sa = a->counters().snapshot();
  EXPECT_EQ(sa.tx_frames, frames.size());
  EXPECT_EQ(sa.tx_bytes, payload);
  EXPECT_EQ(sa.tx_packets, 1U);  // one tick's frames in one packet
  EXPECT_EQ(sa.last_tx_tick, 5);
  EXPECT_EQ(sa.total_drops(), 0U);
  const TransportStats sb = b->counters().snapshot();
  EXPECT_EQ(sb.rx_frames, frames.size());
  EXPECT_EQ(sb.rx_bytes, payload);
  EXPECT_EQ(sb.rx_packets, 1U);
  EXPECT_GE(sb.last_rx_tick, 6);
  EXPECT_EQ(sb.total_drops(), 0U);
  EXPECT_EQ(sb.errors, 0U);

  const CanFrame reply = make_frame(0x321, {9});
  EXPECT_EQ(b->send(reply, 7), SendStatus::ok);
  b->flush(7);
  EXPECT_EQ(frames_of(receive_until(*a, 1, 2s)), std::vector<CanFrame>{reply});
}

TEST(CannelloniTransport, BatchesOneTickIntoAsFewPacketsAsFit) {
  const std::uint16_t port_a = UdpTestSocket::free_port();
  const std::uint16_t port_b = UdpTestSocket::free_port();
  // 200 bytes: header 5 + 15 frames of 13 bytes (8 data bytes) = 200.
  const auto a = open_transport(uri_between(port_b, port_a, "&max_packet=200"));
  const auto b = open_transport(uri_between(port_a, port_b));
  std::vector<CanFrame> frames;
  for (std::uint8_t i = 0; i < 40; ++i) frames.push_back(make_frame(i, {i, 1, 2, 3, 4, 5, 6, 7}));
  for (const CanFrame& f : frames) EXPECT_EQ(a->send(f, 1), SendStatus::ok);
  a->flush(1);
  EXPECT_EQ(a->counters().snapshot().tx_packets, 3U);  // 15 + 15 + 10

  EXPECT_EQ(frames_of(receive_until(*b, frames.size(), 2s)), frames);
  const TransportStats sb = b->counters().snapshot();
  EXPECT_EQ(sb.rx_packets, 3U);
  EXPECT_EQ(sb.sequence_gaps, 0U);
  EXPECT_EQ(sb.sequence_late, 0U);
}

TEST(CannelloniTransport, FramesBeyondTheOutputSpanWaitForTheNextCall) {
  const HandPeer h;
  std::vector<CanFrame> frames;
  for (std::uint8_t i = 0; i < 10; ++i) frames.push_back(make_frame(i, {i}));
  h.send(packet(0, frames));

  std::vector<TimedFrame> out(3);
  std::vector<CanFrame> got;
  for (int attempt = 0; attempt < 2000 && got.size() < frames.size(); ++attempt) {
    const std::size_t n = h.transport->receive(out, attempt);
    EXPECT_LE(n, 3U);
    for (std::size_t i = 0; i < n; ++i) got.push_back(out[i].frame);
    if (n == 0) std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(got, frames);
  EXPECT_EQ(h.transport->counters().snapshot().rx_packets, 1U);
}

TEST(CannelloniTransport, PacketsFromUnknownPeersAreDroppedAndCounted) {
  const HandPeer h;
  const UdpTestSocket stranger;
  stranger.send_to(h.port, packet(0, {make_frame(0x666, {6})}));
  h.send(packet(0, {make_frame(0x111, {1})}));

  const auto got = receive_until(*h.transport, 1, 2s);
  EXPECT_EQ(frames_of(got), std::vector<CanFrame>{make_frame(0x111, {1})});
  std::this_thread::sleep_for(20ms);
  std::vector<TimedFrame> out(8);
  EXPECT_EQ(h.transport->receive(out, 1), 0U);  // the stranger's frame never shows up
  const TransportStats s = h.transport->counters().snapshot();
  EXPECT_EQ(s.drop_count(DropReason::unknown_peer), 1U);
  EXPECT_EQ(s.rx_packets, 2U);
}

TEST(CannelloniTransport, OversizedTruncatedAndMalformedPacketsAreCountedNotFatal) {
  TransportSpec options;
  options.cannelloni.max_rx_packet_bytes = 500;
  const HandPeer h(options);
  h.send(std::vector<std::uint8_t>(501, 0x02));         // oversized
  h.send(std::vector<std::uint8_t>{0x02, 0x00, 0x01});  // truncated header
  auto cut = packet(1, {make_frame(0x1, {1, 2, 3})});
  cut.pop_back();
  h.send(cut);                                                      // truncated frame
  h.send(std::vector<std::uint8_t>{0x03, 0x00, 0x00, 0x00, 0x00});  // version 3
  auto trailing = packet(2, {make_frame(0x1, {1})});
  trailing.push_back(0);
  h.send(trailing);       // bytes after the frames
  h.send(packet(3, {}));  // empty: fine
  h.send(packet(4, {make_frame(0x42, {4, 2})}));

  EXPECT_EQ(frames_of(receive_until(*h.transport, 1, 2s)),
            std::vector<CanFrame>{make_frame(0x42, {4, 2})});
  const TransportStats s = h.transport->counters().snapshot();
  EXPECT_EQ(s.drop_count(DropReason::oversized), 1U);
  EXPECT_EQ(s.drop_count(DropReason::truncated), 2U);
  EXPECT_EQ(s.drop_count(DropReason::malformed), 2U);
  EXPECT_EQ(s.rx_packets, 7U);
  EXPECT_EQ(s.rx_frames, 1U);
  EXPECT_EQ(s.errors, 0U);
}

TEST(CannelloniTransport, SequenceGapsAndLatePacketsAreCountedAcrossTheWrap) {
  const HandPeer h;
  // 254, 255, 0 in order; 3 skips 1 and 2; 2 arrives late; 4 in order.
  const std::uint8_t sequence[] = {254, 255, 0, 3, 2, 4};
  for (const std::uint8_t s : sequence) h.send(packet(s, {make_frame(s, {s})}));

  const auto got = receive_until(*h.transport, std::size(sequence), 2s);
  ASSERT_EQ(got.size(), std::size(sequence));  // late packets still deliver their frames
  const TransportStats s = h.transport->counters().snapshot();
  EXPECT_EQ(s.sequence_gaps, 1U);
  EXPECT_EQ(s.sequence_lost, 2U);
  EXPECT_EQ(s.sequence_late, 1U);
}

TEST(CannelloniTransport, SenderNumbersItsPacketsFromZeroAndWraps) {
  const std::uint16_t port_a = UdpTestSocket::free_port();
  const std::uint16_t port_b = UdpTestSocket::free_port();
  const auto a = open_transport(uri_between(port_b, port_a));
  const auto b = open_transport(uri_between(port_a, port_b));
  for (int tick = 0; tick < 300; ++tick) {
    EXPECT_EQ(a->send(make_frame(0x5, {static_cast<std::uint8_t>(tick)}), tick), SendStatus::ok);
    a->flush(tick);
    if (tick % 50 == 49) {
      EXPECT_EQ(receive_until(*b, 50, 2s).size(), 50U);
    }
  }
  const TransportStats s = b->counters().snapshot();
  EXPECT_EQ(s.rx_packets, 300U);
  EXPECT_EQ(s.sequence_gaps, 0U);  // 300 packets: the u8 sequence wrapped once, no gap seen
  EXPECT_EQ(s.sequence_late, 0U);
}

TEST(CannelloniTransport, SetupErrorsNameTheUriAndTheCause) {
  const std::uint16_t port = UdpTestSocket::free_port();
  const auto first = open_transport(uri_between(9, port));
  try {
    (void)open_transport(uri_between(9, port));
    FAIL() << "binding a port twice must fail";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("cannelloni://127.0.0.1:9"), std::string::npos) << m;
    EXPECT_NE(m.find("cannot bind"), std::string::npos) << m;
  }
  EXPECT_THROW((void)open_transport("cannelloni://no-such-host.invalid:20000"), std::runtime_error);
  EXPECT_THROW((void)open_transport("cannelloni://127.0.0.1:20000?max_packet=74"),
               std::invalid_argument);
}

}  // namespace
}  // namespace hil::io::can
