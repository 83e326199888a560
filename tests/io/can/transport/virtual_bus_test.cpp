// virtual:NAME (io/can/transport/virtual_bus.hpp): every endpoint gets what the others send, never
// its own frames; buses are separate by name; full queues drop and count on both sides; endpoints
// on different threads (run this under TSan), with others attaching and detaching meanwhile.

#include "io/can/transport/virtual_bus.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "io/can/transport/transport_factory.hpp"
#include "tests/support/frame_helpers.hpp"

namespace hil::io::can {
namespace {

using test::make_fd;
using test::make_frame;

std::vector<CanFrame> drain(Transport& t, std::size_t span = 64) {
  std::vector<TimedFrame> buffer(span);
  std::vector<CanFrame> out;
  for (;;) {
    const std::size_t n = t.receive(buffer, 0);
    for (std::size_t i = 0; i < n; ++i) out.push_back(buffer[i].frame);
    if (n == 0) return out;
  }
}

TEST(VirtualBus, EveryOtherEndpointReceivesNeverTheSender) {
  const auto a = open_transport("virtual:multi");
  const auto b = open_transport("virtual:multi");
  const auto c = open_transport("virtual:multi");
  const CanFrame f1 = make_frame(0x100, {1});
  const CanFrame f2 = make_fd(0x18DA00F1, 64, kExtended | kBrs);
  EXPECT_EQ(a->send(f1, 1), SendStatus::ok);
  EXPECT_EQ(b->send(f2, 2), SendStatus::ok);
  a->flush(1);
  b->flush(2);
  EXPECT_EQ(drain(*a), std::vector<CanFrame>{f2});
  EXPECT_EQ(drain(*b), std::vector<CanFrame>{f1});
  EXPECT_EQ(drain(*c), (std::vector<CanFrame>{f1, f2}));

  const TransportStats sa = a->counters().snapshot();
  EXPECT_EQ(sa.tx_frames, 1U);
  EXPECT_EQ(sa.tx_bytes, 1U);
  EXPECT_EQ(sa.rx_frames, 1U);
  EXPECT_EQ(sa.rx_bytes, 64U);
  EXPECT_EQ(sa.last_tx_tick, 1);
  EXPECT_EQ(c->counters().snapshot().rx_frames, 2U);
}

TEST(VirtualBus, BusesWithDifferentNamesAreSeparate) {
  const auto a = open_transport("virtual:left");
  const auto b = open_transport("virtual:right");
  const auto a2 = open_transport("virtual:left");
  EXPECT_EQ(a->send(make_frame(0x1, {}), 0), SendStatus::ok);
  EXPECT_TRUE(drain(*b).empty());
  EXPECT_EQ(drain(*a2).size(), 1U);
}

TEST(VirtualBus, FullQueueDropsAndCountsOnBothSides) {
  const auto a = open_transport("virtual:full");
  const auto b = open_transport("virtual:full?queue=4");
  for (std::uint8_t i = 0; i < 6; ++i) {
    EXPECT_EQ(a->send(make_frame(i, {i}), 0), i < 4 ? SendStatus::ok : SendStatus::back_pressure);
  }
  const std::vector<CanFrame> got = drain(*b);
  ASSERT_EQ(got.size(), 4U);
  for (std::uint8_t i = 0; i < 4; ++i) EXPECT_EQ(got[i], make_frame(i, {i}));
  EXPECT_EQ(b->counters().snapshot().drop_count(DropReason::queue_full), 2U);
  EXPECT_EQ(a->counters().snapshot().drop_count(DropReason::peer_queue_full), 2U);
  EXPECT_EQ(a->counters().snapshot().tx_frames, 6U);
}

TEST(VirtualBus, WhatDoesNotFitTheOutputSpanWaits) {
  const auto a = open_transport("virtual:span");
  const auto b = open_transport("virtual:span");
  for (std::uint8_t i = 0; i < 10; ++i) (void)a->send(make_frame(i, {}), 0);
  std::vector<TimedFrame> out(4);
  EXPECT_EQ(b->receive(out, 0), 4U);
  EXPECT_EQ(out[3].frame.id, 3U);
  EXPECT_EQ(b->receive(out, 1), 4U);
  EXPECT_EQ(b->receive(out, 2), 2U);
  EXPECT_EQ(out[1].frame.id, 9U);
  EXPECT_EQ(b->receive(out, 3), 0U);
}

TEST(VirtualBus, InvalidFramesAreRefused) {
  const auto a = open_transport("virtual:invalid");
  EXPECT_EQ(a->send(make_frame(0x800, {}), 0), SendStatus::unsupported);
  EXPECT_EQ(a->send(make_fd(0x1, 13), 0), SendStatus::unsupported);
  EXPECT_EQ(a->counters().snapshot().drop_count(DropReason::unsupported), 2U);
  EXPECT_EQ(a->counters().snapshot().tx_frames, 0U);
}

TEST(VirtualBus, ANewEndpointNeverSeesFramesQueuedForAnOldOne) {
  const auto a = open_transport("virtual:reuse");
  auto b = open_transport("virtual:reuse");
  (void)a->send(make_frame(0x1, {}), 0);
  b.reset();                                       // detached with a frame still queued
  const auto c = open_transport("virtual:reuse");  // takes the freed slot
  EXPECT_TRUE(drain(*c).empty());
  (void)a->send(make_frame(0x2, {}), 0);
  EXPECT_EQ(drain(*c), std::vector<CanFrame>{make_frame(0x2, {})});
}

TEST(VirtualBus, SixteenEndpointsAtMostAndClearUriErrors) {
  std::vector<std::unique_ptr<Transport>> endpoints;
  for (std::size_t i = 0; i < kMaxVirtualEndpoints; ++i) {
    endpoints.push_back(open_transport("virtual:crowded"));
  }
  try {
    (void)open_transport("virtual:crowded");
    FAIL() << "a 17th endpoint must be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("virtual:crowded: virtual CAN bus already has 16"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)open_transport("virtual:has space"), std::invalid_argument);
  EXPECT_THROW((void)open_transport("virtual:x?queue=0"), std::invalid_argument);
  EXPECT_THROW((void)open_transport("virtual:x?queue=65535"), std::invalid_argument);
  EXPECT_THROW((void)open_transport("virtual:"), std::invalid_argument);
}

/// Sends `count` frames numbered in their data while draining its own receive queue, then
/// drains until the peer is done too.
struct Endpoint {
  std::unique_ptr<Transport> transport;
  std::vector<std::uint32_t> received;

  std::size_t poll(std::vector<TimedFrame>& buffer) {
    const std::size_t n = transport->receive(buffer, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const CanFrame& f = buffer[i].frame;
      received.push_back(f.data[0] | (f.data[1] << 8) | (f.data[2] << 16));
    }
    return n;
  }

  void run(std::uint32_t my_id, std::uint32_t count, std::atomic<bool>& my_done,
           const std::atomic<bool>& peer_done) {
    std::vector<TimedFrame> buffer(32);
    for (std::uint32_t k = 0; k < count; ++k) {
      const CanFrame f =
          make_frame(my_id, {static_cast<std::uint8_t>(k), static_cast<std::uint8_t>(k >> 8),
                             static_cast<std::uint8_t>(k >> 16)});
      (void)transport->send(f, k);
      if (k % 8 == 0) (void)poll(buffer);
    }
    my_done.store(true, std::memory_order_release);  // every push of ours happened before
    while (!peer_done.load(std::memory_order_acquire)) (void)poll(buffer);
    while (poll(buffer) != 0) {
    }
  }
};

TEST(VirtualBus, EndpointsOnTwoThreadsWhileOthersAttachAndDetach) {
  constexpr std::uint32_t kFrames = 20'000;
  Endpoint a{open_transport("virtual:threads?queue=256"), {}};
  Endpoint b{open_transport("virtual:threads?queue=256"), {}};
  std::atomic<bool> a_done{false};
  std::atomic<bool> b_done{false};
  std::atomic<bool> stop_churn{false};
  std::thread churn([&] {  // attach/detach on the same bus while frames fly
    while (!stop_churn.load()) {
      const auto c = open_transport("virtual:threads?queue=8");
      std::vector<TimedFrame> out(8);
      (void)c->receive(out, 0);
    }
  });
  std::thread ta([&] { a.run(0xA, kFrames, a_done, b_done); });
  std::thread tb([&] { b.run(0xB, kFrames, b_done, a_done); });
  ta.join();
  tb.join();
  stop_churn = true;
  churn.join();

  for (Endpoint* e : {&a, &b}) {
    const Endpoint& other = e == &a ? b : a;
    for (std::size_t i = 1; i < e->received.size(); ++i) {
      ASSERT_LT(e->received[i - 1], e->received[i]) << "frames from one sender stay in order";
    }
    const TransportStats s = e->transport->counters().snapshot();
    EXPECT_EQ(e->received.size() + s.drop_count(DropReason::queue_full), kFrames);
    EXPECT_EQ(s.rx_frames, e->received.size());
    EXPECT_EQ(s.tx_frames, kFrames);
    // The sender also counts what the churning endpoints' tiny queues refused.
    EXPECT_GE(other.transport->counters().snapshot().drop_count(DropReason::peer_queue_full),
              s.drop_count(DropReason::queue_full));
  }
}

}  // namespace
}  // namespace hil::io::can
