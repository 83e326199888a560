// When a fault is on (runtime/faults/fault_trigger.hpp), tick by tick: each start, stop and the
// pulse against ticks worked out by hand.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "rt_core/channel_table.hpp"
#include "runtime/faults/fault_state.hpp"
#include "runtime/faults/fault_trigger.hpp"

namespace hil::runtime::detail {
namespace {

struct Trigger : ::testing::Test {
  Trigger() {
    speed = table.add({.name = "vehicle.body.speed", .unit = "m/s"});
    table.freeze();
  }
  /// The ticks in [0, ticks) at which `f` is on; `speed_at(k)` the channel's value at tick k;
  /// `other_stops_at`: the tick from which a fault it starts after has stopped.
  template <class Speed>
  std::vector<std::int64_t> on_ticks(Fault& f, std::int64_t ticks, Speed speed_at,
                                     std::int64_t other_stops_at = -1) {
    std::vector<std::int64_t> on;
    for (std::int64_t k = 0; k < ticks; ++k) {
      table.set(speed, speed_at(k));
      advance_trigger(f, k, table, other_stops_at >= 0 && k >= other_stops_at);
      if (f.active) on.push_back(k);
    }
    return on;
  }
  static std::vector<std::int64_t> range(std::int64_t from, std::int64_t to) {
    std::vector<std::int64_t> r;
    for (std::int64_t k = from; k < to; ++k) r.push_back(k);
    return r;
  }
  rt::ChannelTable table;
  rt::ChannelId speed;
};

const auto kStill = [](std::int64_t /*k*/) { return 0.0; };

TEST_F(Trigger, AtATickForADuration) {
  Fault f;
  f.start_tick = 3;
  f.stop = Fault::Stop::duration;
  f.duration = 4;
  EXPECT_EQ(on_ticks(f, 12, kStill), range(3, 7));
  EXPECT_EQ(f.first_active, 3);
  EXPECT_EQ(f.last_active, 6);
  EXPECT_EQ(f.count, 4U);  // ticks on: a channel fault
  EXPECT_TRUE(f.stopped);
}

TEST_F(Trigger, AConditionWithItsDebounceAndAStopCondition) {
  Fault f;
  f.start = Fault::Start::condition;
  f.start_condition = {
      .channel = speed, .test = config::FaultCondition::Test::above, .value = 1.0, .debounce = 2};
  f.stop = Fault::Stop::condition;
  f.stop_condition = {.channel = speed, .test = config::FaultCondition::Test::below, .value = 0.5};
  // above 1 from tick 5 (debounced: on at 7), below 0.5 from tick 10
  const auto speed_at = [](std::int64_t k) { return k >= 10 ? 0.0 : (k >= 5 ? 2.0 : 0.0); };
  EXPECT_EQ(on_ticks(f, 15, speed_at), range(7, 10));
}

TEST_F(Trigger, AfterAnotherStopsForACount) {
  Fault f;
  f.start = Fault::Start::after;
  f.stop = Fault::Stop::count;
  f.stop_count = 3;
  EXPECT_EQ(on_ticks(f, 12, kStill, 5), range(5, 8));
}

TEST_F(Trigger, APulseIsOnAndOffFromItsOnset) {
  Fault f;
  f.start_tick = 2;
  f.pulse_on = 2;
  f.pulse_off = 3;
  EXPECT_EQ(on_ticks(f, 14, kStill), (std::vector<std::int64_t>{2, 3, 7, 8, 12, 13}));
}

TEST_F(Trigger, ClearedBeforeItBeganItNeverStarts) {
  Fault f;
  f.start_tick = 5;
  f.force_stop = true;
  EXPECT_TRUE(on_ticks(f, 10, kStill).empty());
  EXPECT_TRUE(f.stopped);
  EXPECT_EQ(f.first_active, -1);
}

TEST_F(Trigger, ClearedWhileOnItStopsAtTheNextDecision) {
  Fault f;
  std::vector<std::int64_t> on;
  for (std::int64_t k = 0; k < 10; ++k) {
    if (k == 4) f.force_stop = true;
    advance_trigger(f, k, table, false);
    if (f.active) on.push_back(k);
  }
  EXPECT_EQ(on, range(0, 4));
}

}  // namespace
}  // namespace hil::runtime::detail
