#include "io/console/capture.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace hil::io::console {
namespace {

/// A table of two channels: 0 holds the tick, 1 holds tick·0.1.
std::vector<double> row(std::int64_t tick) {
  return {static_cast<double>(tick), static_cast<double>(tick) * 0.1};
}

struct Taken {
  std::vector<std::int64_t> ticks;
  std::vector<double> first_channel;
  std::vector<CaptureNotice> notices;
};

Taken take(Capture& c) {
  Taken t;
  c.flush();
  for (Capture::Output& o : c.output()) {
    if (o.notice) t.notices.push_back(*o.notice);
    if (!o.block) continue;
    for (std::uint32_t i = 0; i < o.block->samples; ++i) {
      t.ticks.push_back(o.block->first_tick + static_cast<std::int64_t>(i) * c.spec().decimation);
      t.first_channel.push_back(o.block->values[i]);
    }
  }
  c.output().clear();
  return t;
}

TEST(Capture, NowForADurationTakesEveryTick) {
  Capture c({.channels = {1, 0}, .duration_ticks = 2500});
  for (std::int64_t k = 10; k < 3000; ++k) c.add_tick(k, row(k));
  const Taken t = take(c);
  ASSERT_EQ(t.ticks.size(), 2500u);
  EXPECT_EQ(t.ticks.front(), 10);
  EXPECT_EQ(t.ticks.back(), 2509);
  EXPECT_DOUBLE_EQ(t.first_channel[7], 1.7) << "channel-major: the first channel asked";
  ASSERT_EQ(t.notices.size(), 2u);
  EXPECT_EQ(t.notices[1].reason, "duration");
  EXPECT_EQ(t.notices[1].samples, 2500u);
  EXPECT_EQ(t.notices[1].lost, 0u);
  EXPECT_TRUE(c.done());
}

TEST(Capture, ARisingEdgeWithPreTriggerOnTheDecimatedGrid) {
  CaptureSpec spec{.channels = {0}, .decimation = 4, .pre_ticks = 10, .duration_ticks = 20};
  spec.start = {.kind = CaptureTrigger::Kind::condition,
                .condition = rt::ChannelCondition{
                    .channel = {0}, .op = rt::Compare::greater, .threshold = 100.5}};
  Capture c(spec);
  for (std::int64_t k = 0; k < 200; ++k) c.add_tick(k, row(k));
  const Taken t = take(c);
  ASSERT_FALSE(t.notices.empty());
  EXPECT_EQ(t.notices[0].tick, 101);  // the first tick above 100.5
  // pre-trigger 91..100 on the grid 101 − 4k: 93, 97; then 101, 105, …, 117 (20 ticks)
  EXPECT_EQ(t.ticks, (std::vector<std::int64_t>{93, 97, 101, 105, 109, 113, 117}));
  EXPECT_EQ(t.notices[0].first_tick, 93);
}

TEST(Capture, AnEdgeNeedsTheConditionFalseFirstALevelDoesNot) {
  CaptureSpec spec{.channels = {0}, .duration_ticks = 1};
  spec.start = {.kind = CaptureTrigger::Kind::condition,
                .condition = rt::ChannelCondition{
                    .channel = {0}, .op = rt::Compare::greater, .threshold = -1.0}};
  Capture edge(spec);
  for (std::int64_t k = 0; k < 50; ++k) edge.add_tick(k, row(k));
  EXPECT_TRUE(take(edge).ticks.empty()) << "true from the start: no edge";
  spec.start.edge = false;
  Capture level(spec);
  for (std::int64_t k = 0; k < 50; ++k) level.add_tick(k, row(k));
  EXPECT_EQ(take(level).ticks, (std::vector<std::int64_t>{0}));
}

TEST(Capture, NormalModeRearmsAndAStopConditionEndsEachShot) {
  // both conditions always hold (level): every tick is a one-tick shot
  CaptureSpec spec{.channels = {0}, .repeat = true};
  spec.start = {
      .kind = CaptureTrigger::Kind::condition,
      .condition =
          rt::ChannelCondition{.channel = {1}, .op = rt::Compare::greater_equal, .threshold = 0.0},
      .edge = false};
  spec.stop = CaptureTrigger{
      .kind = CaptureTrigger::Kind::condition,
      .condition =
          rt::ChannelCondition{.channel = {0}, .op = rt::Compare::greater_equal, .threshold = 0.0},
      .edge = false};
  Capture c(spec);
  for (std::int64_t k = 0; k < 3; ++k) c.add_tick(k, row(k));
  const Taken t = take(c);
  EXPECT_EQ(t.ticks, (std::vector<std::int64_t>{0, 1, 2})) << "one-tick shots, re-armed";
  EXPECT_EQ(t.notices.size(), 6u);
  EXPECT_FALSE(c.done());
  c.end("cancelled");
  EXPECT_TRUE(c.done());
}

TEST(Capture, TicksTheTapLostAreCountedAndCutTheBlock) {
  Capture c({.channels = {0}, .decimation = 2, .duration_ticks = 100});
  for (std::int64_t k = 0; k < 20; ++k) c.add_tick(k, row(k));
  for (std::int64_t k = 31; k < 120; ++k) c.add_tick(k, row(k));  // 20..30 lost
  const Taken t = take(c);
  // grid ticks 20, 22, …, 30 lost: 6 samples
  EXPECT_EQ(c.lost(), 6u);
  ASSERT_EQ(t.notices.size(), 2u);
  EXPECT_EQ(t.notices[1].lost, 6u);
  EXPECT_EQ(t.notices[1].samples, 44u);  // 50 grid ticks in 0..99, 6 lost
  EXPECT_EQ(t.ticks[10], 32);
}

TEST(Capture, EndedByTheRunWhileArmed) {
  CaptureSpec spec{.channels = {0}};
  spec.start = {.kind = CaptureTrigger::Kind::tick, .tick = 1000};
  Capture c(spec);
  for (std::int64_t k = 0; k < 10; ++k) c.add_tick(k, row(k));
  c.end("run ended");
  const Taken t = take(c);
  ASSERT_EQ(t.notices.size(), 1u);
  EXPECT_EQ(t.notices[0].reason, "run ended");
  EXPECT_EQ(t.notices[0].samples, 0u);
}

}  // namespace
}  // namespace hil::io::console
