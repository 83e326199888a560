// The RT-path promise of the CAN transports (DESIGN.md §5): after setup, receive(), send()
// and flush() allocate nothing — on the virtual bus, on cannelloni (including the batching,
// drop and error paths) and on slcan. Links the allocation counter (tests/support), which
// replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "io/can/transport/cannelloni_transport.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/pty_pair.hpp"
#include "tests/support/udp_test_socket.hpp"

namespace hil::io::can {
namespace {

using namespace std::chrono_literals;
using test::make_fd;
using test::make_frame;

using hil::testing::allocations_in;

/// One RT-like tick: send a burst, flush, drain.
void tick(Transport& tx, Transport& rx, std::vector<TimedFrame>& buffer, std::int64_t k,
          std::size_t burst) {
  for (std::size_t i = 0; i < burst; ++i) {
    const auto id = static_cast<std::uint32_t>((k * 7 + static_cast<std::int64_t>(i)) & 0x7FF);
    (void)tx.send(i % 3 == 0 ? make_fd(id, 64, kBrs) : make_frame(id, {1, 2, 3, 4, 5, 6, 7, 8}), k);
  }
  tx.flush(k);
  (void)rx.receive(buffer, k);
  (void)tx.receive(buffer, k);
}

TEST(TransportAllocations, TheCounterSeesAnAllocation) {
  const std::uint64_t n = allocations_in([] {
    const auto p = std::make_unique<std::uint64_t>(1);
    EXPECT_EQ(*p, 1U);
  });
  EXPECT_EQ(n, 1U);
}

TEST(TransportAllocations, VirtualBusAfterSetup) {
  const auto a = open_transport("virtual:alloc?queue=64");
  const auto b = open_transport("virtual:alloc?queue=64");
  std::vector<TimedFrame> buffer(32);  // smaller than a burst: frames wait, queues overflow
  for (std::int64_t k = 0; k < 100; ++k) tick(*a, *b, buffer, k, 40);
  const std::uint64_t n = allocations_in([&] {
    for (std::int64_t k = 100; k < 10'100; ++k) {
      tick(*a, *b, buffer, k, 40);
      tick(*b, *a, buffer, k, 3);
      (void)a->send(make_frame(0x800, {}), k);  // refused: the unsupported path too
    }
  });
  EXPECT_EQ(n, 0U);
  EXPECT_GT(b->counters().snapshot().rx_frames, 100'000U);
  EXPECT_GT(b->counters().snapshot().drop_count(DropReason::queue_full), 0U);
}

TEST(TransportAllocations, CannelloniAfterSetup) {
  const std::uint16_t port_a = test::UdpTestSocket::free_port();
  const std::uint16_t port_b = test::UdpTestSocket::free_port();
  const auto a = open_transport("cannelloni://127.0.0.1:" + std::to_string(port_b) +
                                "?local=127.0.0.1:" + std::to_string(port_a) + "&max_packet=300");
  const auto b = open_transport("cannelloni://127.0.0.1:" + std::to_string(port_a) +
                                "?local=127.0.0.1:" + std::to_string(port_b));
  test::UdpTestSocket stranger;
  const std::vector<std::uint8_t> garbage{0x02, 0x00, 0x01, 0x00, 0x05, 0xFF};
  std::vector<TimedFrame> buffer(16);
  for (std::int64_t k = 0; k < 100; ++k) tick(*a, *b, buffer, k, 20);
  std::uint64_t by_the_test = 0;  // the stranger is the test, not the transport
  const std::uint64_t n = allocations_in([&] {
    for (std::int64_t k = 100; k < 5'100; ++k) {
      tick(*a, *b, buffer, k, 20);  // several packets per tick at max_packet=300
      tick(*b, *a, buffer, k, 2);
      (void)a->send(make_fd(0x1, 13), k);  // refused
      if (k % 100 == 0) {
        by_the_test += allocations_in([&] { stranger.send_to(port_b, garbage); });
      }
    }
  });
  EXPECT_EQ(n - by_the_test, 0U);
  std::this_thread::sleep_for(20ms);
  const std::uint64_t drain = allocations_in([&] {
    for (int i = 0; i < 100; ++i) (void)b->receive(buffer, 0);
  });
  EXPECT_EQ(drain, 0U);
  const TransportStats s = b->counters().snapshot();
  EXPECT_GT(s.rx_frames, 50'000U);
  EXPECT_EQ(s.drop_count(DropReason::unknown_peer), 50U);
}

TEST(TransportAllocations, CannelloniOverBudget) {
  // Past the receive budget the transport drops in recvmmsg batches: nothing allocated either
  const std::uint16_t port_a = test::UdpTestSocket::free_port();
  const std::uint16_t port_b = test::UdpTestSocket::free_port();
  const auto a = open_transport("cannelloni://127.0.0.1:" + std::to_string(port_b) +
                                "?local=127.0.0.1:" + std::to_string(port_a) + "&max_packet=300");
  const auto b = open_transport("cannelloni://127.0.0.1:" + std::to_string(port_a) +
                                "?local=127.0.0.1:" + std::to_string(port_b));
  b->set_rx_budget(4);
  std::vector<TimedFrame> buffer(16);
  for (std::int64_t k = 0; k < 100; ++k) tick(*a, *b, buffer, k, 60);
  const std::uint64_t n = allocations_in([&] {
    for (std::int64_t k = 100; k < 3'100; ++k) tick(*a, *b, buffer, k, 60);
  });
  EXPECT_EQ(n, 0U);
  const TransportStats s = b->counters().snapshot();
  EXPECT_LE(s.rx_frames, 3'100U * 4U);
  EXPECT_GT(s.drop_count(DropReason::over_budget), 100'000U);
}

TEST(TransportAllocations, SlcanAfterSetup) {
  test::Pty pty;
  const auto t = open_transport("slcan:" + pty.slave_path());
  (void)pty.drain(20ms);
  const std::string lines = "t1238" + std::string(16, 'A') + "\rO\r\a" + std::string(200, 'x') +
                            "\rd1009" + std::string(24, '3') + "\r";
  std::vector<TimedFrame> buffer(4);
  std::uint64_t n = 0;
  for (std::int64_t k = 0; k < 2'000; ++k) {
    pty.write(lines);
    n += allocations_in([&] {
      for (int i = 0; i < 4; ++i) (void)t->send(make_fd(0x123, 64, kBrs), k);
      t->flush(k);
      (void)t->receive(buffer, k);
      (void)t->receive(buffer, k);
    });
    (void)pty.drain(1ms);
  }
  EXPECT_EQ(n, 0U);
  EXPECT_GT(t->counters().snapshot().rx_frames, 1'000U);
}

}  // namespace
}  // namespace hil::io::can
