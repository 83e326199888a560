// The trace player's scheduling with a simulated clock (no real time): absolute deadlines that
// do not accumulate the send time, speed, loops continuing the timeline, routing, filtering,
// back-pressure retries and stopping.

#include "io/can/trace/trace_player.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "io/can/transport/transport_factory.hpp"
#include "tests/io/can/trace/play_fakes.hpp"
#include "tests/support/frame_helpers.hpp"

namespace hil::io::can {
namespace {

using rt::kMicrosecond;
using rt::kMillisecond;
using test::add_frames;
using test::FakeClock;
using test::FakeTransport;

constexpr rt::Nanoseconds kStart = 1'000 * rt::kSecond;

PlayCounts play(const Trace& trace, std::vector<Transport*> routes, FakeClock& clock,
                PlayerSpec options = {}, const FrameFilter& filter = {}) {
  TracePlayer player(trace, routes, filter, options, clock);
  return player.run();
}

TEST(TracePlayer, DeadlinesStayOnTheLogTimelineWhenEverySendTakesTime) {
  Trace trace;
  add_frames(trace, 1000, kMillisecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 300 * kMicrosecond);
  const PlayCounts c = play(trace, {&bus}, clock);

  ASSERT_EQ(c.sent, 1000U);
  ASSERT_EQ(bus.sent.size(), 1000U);
  ASSERT_EQ(clock.sleeps.size(), 999U);  // frame 0 is due at once
  for (std::size_t i = 1; i < 1000; ++i) {
    // The i-th deadline is start + i ms: 0.3 ms per send did not push it back.
    ASSERT_EQ(clock.sleeps[i - 1], kStart + static_cast<rt::Nanoseconds>(i) * kMillisecond) << i;
  }
  for (std::size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(bus.sent[i].timestamp_ns,
              kStart + static_cast<rt::Nanoseconds>(i) * kMillisecond + 300 * kMicrosecond);
    ASSERT_EQ(bus.sent[i].frame, trace.frame(i));
  }
  EXPECT_EQ(c.duration_error(), 0);
  EXPECT_EQ(c.late, 0U);
  EXPECT_EQ(bus.flushes, 1000U);  // each frame leaves before the wait for the next
}

TEST(TracePlayer, LatenessIsTheSendTimeMinusTheDeadline) {
  Trace trace;
  add_frames(trace, 200, kMillisecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 300 * kMicrosecond);
  TracePlayer player(trace, std::array<Transport*, 1>{&bus}, {}, {}, clock);
  const PlayCounts c = player.run();
  const rt::HistogramSummary lateness = player.lateness();
  EXPECT_EQ(lateness.count, 200U);
  EXPECT_EQ(lateness.min_ns, 300 * kMicrosecond);
  EXPECT_EQ(lateness.max_ns, 300 * kMicrosecond);
  EXPECT_EQ(lateness.percentile_us(0.99), 300.0);
  EXPECT_EQ(c.first_deadline, kStart);
  EXPECT_EQ(c.last_deadline, kStart + 199 * kMillisecond);
}

TEST(TracePlayer, ASenderSlowerThanTheLogFallsBehindWithoutMovingTheDeadlines) {
  Trace trace;
  add_frames(trace, 100, kMillisecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 1500 * kMicrosecond);  // longer than the gap
  const PlayCounts c = play(trace, {&bus}, clock, {.late_after = 10 * kMillisecond});
  ASSERT_EQ(c.sent, 100U);
  EXPECT_TRUE(clock.sleeps.empty());  // always behind: never waits
  // Frame i leaves after i+1 sends: lateness (i+1)·1.5 ms − i·1 ms grows by 0.5 ms a frame,
  // and the play ends 99 × 0.5 ms later than the log says.
  EXPECT_EQ(bus.sent[99].timestamp_ns - (kStart + 99 * kMillisecond), 51 * kMillisecond);
  EXPECT_EQ(c.duration_error(), 99 * 500 * kMicrosecond);
  EXPECT_EQ(c.late, 100U - 18U);  // frame i is 0.5·i + 1.5 ms late: 18.. more than 10 ms
}

TEST(TracePlayer, SpeedScalesTheTimelineAndMaxNeverWaits) {
  Trace trace;
  add_frames(trace, 10, 4 * kMillisecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  (void)play(trace, {&bus}, clock, {.speed = 2.0});
  ASSERT_EQ(clock.sleeps.size(), 9U);
  EXPECT_EQ(clock.sleeps[0], kStart + 2 * kMillisecond);
  EXPECT_EQ(clock.sleeps[8], kStart + 18 * kMillisecond);

  FakeClock fast(kStart);
  FakeTransport fast_bus(fast, kMicrosecond);
  const PlayCounts c = play(trace, {&fast_bus}, fast, {.speed = 0.0});
  EXPECT_EQ(c.sent, 10U);
  EXPECT_TRUE(fast.sleeps.empty());
  EXPECT_EQ(fast.now(), kStart + 10 * kMicrosecond);
}

TEST(TracePlayer, LoopsContinueTheTimelineAfterTheLoopGap) {
  Trace trace;
  CanFrame f;
  trace.add(0, "can0", f);
  trace.add(1 * kMillisecond, "can0", f);
  trace.add(3 * kMillisecond, "can0", f);
  EXPECT_EQ(trace.median_gap(kMillisecond), 1 * kMillisecond);  // of 1 ms and 2 ms: the lower
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  const PlayCounts c = play(trace, {&bus}, clock, {.loops = 3, .loop_gap = 2 * kMillisecond});
  EXPECT_EQ(c.sent, 9U);
  EXPECT_EQ(c.loops_completed, 3U);
  const std::vector<rt::Nanoseconds> expected{1, 3, 5, 6, 8, 10, 11, 13};  // ms; loop period 5
  ASSERT_EQ(clock.sleeps.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(clock.sleeps[i], kStart + expected[i] * kMillisecond) << i;
  }
}

TEST(TracePlayer, RoutesByInterfaceAndCountsWhatHasNoRouteOrIsFilteredOut) {
  Trace trace;
  for (int i = 0; i < 30; ++i) {
    const char* iface = i % 3 == 0 ? "can0" : (i % 3 == 1 ? "can1" : "can2");
    CanFrame f;
    f.id = i % 2 == 0 ? 0x123 : 0x456;
    trace.add(i * kMillisecond, iface, f);
  }
  FakeClock clock(kStart);
  FakeTransport a(clock, 0, "a");
  FakeTransport b(clock, 0, "b");
  const PlayCounts c =
      play(trace, {&a, &b, nullptr}, clock, {.loops = 2}, FrameFilter::parse("123:7FF"));
  // can0: i = 0,3,…,27 (10 frames, 5 with id 123); can1: 1,4,…,28 (5 with id 123); can2: none.
  EXPECT_EQ(a.sent.size(), 10U);
  EXPECT_EQ(b.sent.size(), 10U);
  for (const TimedFrame& t : a.sent) EXPECT_EQ(t.frame.id, 0x123U);
  EXPECT_EQ(c.sent, 20U);
  EXPECT_EQ(c.no_route, 20U);  // 10 a loop
  EXPECT_EQ(c.filtered, 20U);  // 10 a loop on can0 and can1
}

TEST(TracePlayer, TwoRoutesToOneTransportShareItsFlush) {
  Trace trace;
  add_frames(trace, 4, kMillisecond, "can0");
  add_frames(trace, 4, kMillisecond, "can1", 500 * kMicrosecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  const PlayCounts c = play(trace, {&bus, &bus}, clock);
  EXPECT_EQ(c.sent, 8U);
  EXPECT_EQ(bus.sent.size(), 8U);
}

TEST(TracePlayer, BackPressureIsRetriedUntilTheTransportTakesTheFrame) {
  Trace trace;
  add_frames(trace, 5, kMillisecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  bus.script = {SendStatus::ok, SendStatus::back_pressure, SendStatus::back_pressure,
                SendStatus::back_pressure};
  const PlayCounts c = play(trace, {&bus}, clock);
  EXPECT_EQ(c.sent, 5U);
  EXPECT_EQ(c.back_pressure_retries, 3U);
  EXPECT_EQ(c.back_pressure_gave_up, 0U);
  ASSERT_EQ(bus.sent.size(), 5U);
  EXPECT_EQ(bus.sent[1].frame, trace.frame(1));
  EXPECT_EQ(bus.sent[1].timestamp_ns, kStart + kMillisecond + 300 * kMicrosecond);  // 3 × 100 us
}

TEST(TracePlayer, RefusalsAreCountedPerTransportAndAttempt) {
  Trace trace;
  add_frames(trace, 4, kMillisecond, "can0");
  add_frames(trace, 2, kMillisecond, "can1");
  FakeClock clock(kStart);
  FakeTransport a(clock, 0, "a");
  FakeTransport b(clock, 0, "b");
  a.script = {SendStatus::back_pressure, SendStatus::back_pressure, SendStatus::ok,
              SendStatus::failed, SendStatus::unsupported};
  TracePlayer player(trace, std::array<Transport*, 2>{&a, &b}, {}, {}, clock);
  (void)player.run();
  EXPECT_EQ(player.refusals_of(a).back_pressure, 2U);
  EXPECT_EQ(player.refusals_of(a).failed, 1U);
  EXPECT_EQ(player.refusals_of(a).unsupported, 1U);
  EXPECT_EQ(player.refusals_of(b).back_pressure, 0U);
  FakeTransport unused(clock, 0);
  EXPECT_EQ(player.refusals_of(unused).failed, 0U);
}

TEST(TracePlayer, AFrameStillRefusedAfterTheWaitIsCountedNotSent) {
  Trace trace;
  add_frames(trace, 3, kMillisecond);
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  bus.script.assign(11, SendStatus::back_pressure);  // frame 0: refused at first and 10 retries
  bus.script.push_back(SendStatus::unsupported);     // frame 1
  const PlayCounts c = play(trace, {&bus}, clock, {.back_pressure_timeout = kMillisecond});
  EXPECT_EQ(c.back_pressure_retries, 10U);  // every 100 us for 1 ms
  EXPECT_EQ(c.back_pressure_gave_up, 1U);
  EXPECT_EQ(c.unsupported, 1U);
  EXPECT_EQ(c.sent, 1U);
  EXPECT_EQ(c.not_sent(), 2U);
}

TEST(TracePlayer, StopEndsThePlayBeforeTheNextFrameAndCountsTheSkippedSoFar) {
  Trace trace;
  for (int i = 0; i < 100; ++i) trace.add(i * kMillisecond, i % 2 == 0 ? "can0" : "can9", {});
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  TracePlayer player(trace, std::array<Transport*, 2>{&bus, nullptr}, {}, {.loops = 0}, clock);
  bus.on_send = [&](std::size_t sent) {
    if (sent == 120) player.request_stop();  // during the third loop
  };
  const PlayCounts c = player.run();
  EXPECT_TRUE(c.stopped);
  EXPECT_EQ(c.sent, 121U);
  EXPECT_EQ(c.loops_completed, 2U);
  // Two whole loops skip 50 each; the third stopped before record 42 (its 22nd can0 frame).
  EXPECT_EQ(c.no_route, 100U + 21U);
}

TEST(TracePlayer, ALongGapIsWaitedInSlicesSoThatAStopIsSeen) {
  Trace trace;
  trace.add(0, "can0", {});
  trace.add(10 * rt::kSecond, "can0", {});
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  const PlayCounts c = play(trace, {&bus}, clock, {.stop_poll = 50 * kMillisecond});
  EXPECT_EQ(c.sent, 2U);
  ASSERT_EQ(clock.sleeps.size(), 200U);  // 10 s in 50 ms slices, the last one on the deadline
  EXPECT_EQ(clock.sleeps.back(), kStart + 10 * rt::kSecond);
}

TEST(TracePlayer, AStopFromAnotherThreadEndsALongWait) {
  Trace trace;
  add_frames(trace, 2, 3600 * rt::kSecond);  // an hour between the frames
  const auto out = open_transport("virtual:play_stop");
  rt::MonotonicClock clock;
  TracePlayer player(trace, std::array<Transport*, 1>{out.get()}, {},
                     {.stop_poll = 10 * kMillisecond}, clock);
  std::atomic<bool> done{false};
  std::thread watcher([&] {  // as `hilsim play` does: progress reads, then Ctrl-C
    while (player.progress().sent == 0) std::this_thread::yield();
    player.request_stop();
    while (!done.load()) (void)player.progress();
  });
  const auto started = std::chrono::steady_clock::now();
  const PlayCounts c = player.run();
  done.store(true);
  watcher.join();
  EXPECT_TRUE(c.stopped);
  EXPECT_EQ(c.sent, 1U);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
}

TEST(TracePlayer, OutOfOrderTimestampsAreSentAtOnce) {
  Trace trace;
  trace.add(0, "can0", {});
  trace.add(5 * kMillisecond, "can0", {});
  trace.add(2 * kMillisecond, "can0", {});  // merged logs are not always sorted
  FakeClock clock(kStart);
  FakeTransport bus(clock, 0);
  const PlayCounts c = play(trace, {&bus}, clock);
  ASSERT_EQ(bus.sent.size(), 3U);
  EXPECT_EQ(bus.sent[2].timestamp_ns, kStart + 5 * kMillisecond);
  EXPECT_EQ(c.sent, 3U);
}

TEST(TracePlayer, NothingRoutedPlaysNothingAndSaysSo) {
  Trace trace;
  add_frames(trace, 10, kMillisecond);
  FakeClock clock(kStart);
  TracePlayer player(trace, std::array<Transport*, 1>{nullptr}, {}, {.loops = 0}, clock);
  EXPECT_EQ(player.frames_per_loop(), 0U);
  const PlayCounts c = player.run();  // loops = 0 would be forever: it must return
  EXPECT_EQ(c.sent, 0U);
  EXPECT_EQ(c.no_route, 10U);
}

TEST(TracePlayer, RejectsRoutesThatDoNotMatchTheTrace) {
  Trace trace;
  add_frames(trace, 1, kMillisecond);
  FakeClock clock;
  EXPECT_THROW(TracePlayer(trace, std::span<Transport* const>{}, {}, {}, clock),
               std::invalid_argument);
  FakeTransport bus(clock, 0);
  EXPECT_THROW(TracePlayer(trace, std::array<Transport*, 1>{&bus}, {}, {.speed = -1}, clock),
               std::invalid_argument);
}

TEST(TracePlayer, PlaysOntoTwoVirtualBusesWithTheRealClock) {
  Trace trace;
  add_frames(trace, 50, kMicrosecond, "can0");
  trace.add(60 * kMicrosecond, "can1", test::make_fd(0x321, 64, kBrs));
  const auto out0 = open_transport("virtual:play_test_0");
  const auto out1 = open_transport("virtual:play_test_1");
  const auto in0 = open_transport("virtual:play_test_0");
  const auto in1 = open_transport("virtual:play_test_1");
  rt::MonotonicClock clock;
  TracePlayer player(trace, std::array<Transport*, 2>{out0.get(), out1.get()}, {}, {}, clock);
  const PlayCounts c = player.run();
  EXPECT_EQ(c.sent, 51U);
  const auto got0 = test::receive_until(*in0, 50, std::chrono::seconds(5));
  const auto got1 = test::receive_until(*in1, 1, std::chrono::seconds(5));
  ASSERT_EQ(got0.size(), 50U);
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(got0[i].frame, trace.frame(i));
  ASSERT_EQ(got1.size(), 1U);
  EXPECT_EQ(got1[0].frame, trace.frame(50));
}

}  // namespace
}  // namespace hil::io::can
