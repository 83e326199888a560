// The sending thread's promise (DESIGN.md §5): TracePlayer::run() allocates nothing — timed
// with waits, as fast as possible, through back-pressure retries and give-ups, filtering,
// unrouted interfaces and loops, onto the virtual bus and cannelloni. Links the allocation
// counter (tests/support), which replaces operator new, so it is a binary of its own.

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "io/can/trace/trace_player.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/io/can/trace/play_fakes.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/udp_test_socket.hpp"

namespace hil::io::can {
namespace {

using hil::testing::allocations_in;
using rt::kMillisecond;

/// can0: classic frames 1 ms apart; can1: FD frames; can2: never routed.
Trace mixed_trace() {
  Trace trace;
  for (int i = 0; i < 3000; ++i) {
    const rt::Nanoseconds t = i * kMillisecond;
    if (i % 3 == 0) trace.add(t, "can0", test::make_frame(0x100 + (i & 0xFF), {1, 2, 3}));
    if (i % 3 == 1)
      trace.add(t, "can1", test::make_fd(0x321, 64, kBrs, static_cast<std::uint8_t>(i)));
    if (i % 3 == 2) trace.add(t, "can2", test::make_frame(0x7FF, {}));
  }
  return trace;
}

TEST(TracePlayerAllocations, TimedRunWithBackPressureAllocatesNothing) {
  const Trace trace = mixed_trace();
  const auto out = open_transport("virtual:play_alloc?queue=64");
  const auto full = open_transport("virtual:play_alloc?queue=16");  // never drained
  test::UdpTestSocket receiver;
  const auto udp = open_transport("cannelloni://127.0.0.1:" + std::to_string(receiver.port()) +
                                  "?local=127.0.0.1:0");
  test::FakeClock clock;
  clock.sleeps.reserve(100'000);
  const FrameFilter filter = FrameFilter::parse("100:780,321:7FF");  // 0x100..0x17F and 0x321
  TracePlayer player(trace, std::array<Transport*, 3>{out.get(), udp.get(), nullptr}, filter,
                     {.loops = 2, .back_pressure_timeout = kMillisecond}, clock);
  PlayCounts c;
  const std::uint64_t n = allocations_in([&] { c = player.run(); });
  EXPECT_EQ(n, 0U);
  EXPECT_GT(c.back_pressure_retries, 0U);  // the full queue refuses, retries, gives up
  EXPECT_GT(c.back_pressure_gave_up, 0U);
  EXPECT_GT(c.sent, 2000U);
  EXPECT_EQ(c.no_route, 2000U);
  EXPECT_GT(c.filtered, 0U);
  EXPECT_GT(clock.sleeps.size(), 1000U);
}

TEST(TracePlayerAllocations, AsFastAsPossibleOntoCannelloniAllocatesNothing) {
  const Trace trace = mixed_trace();
  test::UdpTestSocket receiver;
  const auto udp = open_transport("cannelloni://127.0.0.1:" + std::to_string(receiver.port()) +
                                  "?local=127.0.0.1:0");
  rt::MonotonicClock clock;
  TracePlayer player(trace, std::array<Transport*, 3>{udp.get(), udp.get(), nullptr}, {},
                     {.speed = 0, .loops = 3}, clock);
  PlayCounts c;
  const std::uint64_t n = allocations_in([&] { c = player.run(); });
  EXPECT_EQ(n, 0U);
  EXPECT_EQ(c.sent, 6000U);
}

}  // namespace
}  // namespace hil::io::can
