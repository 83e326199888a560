// When one sent message goes out, tick by tick (io/can/mapping/send_schedule): the exact ticks
// of a cyclic message with a start delay and under a cycle fault, of an on-change message with
// its gap and repetitions, of an if-active message, and of cyclic + on change.

#include "io/can/mapping/send_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace hil::io::can {
namespace {

using Ticks = std::vector<std::int64_t>;

/// What the message's signals do at one tick, and a cycle fault's period (0: none).
struct Inputs {
  bool changed = false;
  bool active = false;
  std::int64_t fault_cycle = 0;
};

/// The ticks in [0, end) at which `schedule` sends, with `at(tick)` as its inputs.
Ticks run(
    SendSchedule schedule, std::int64_t end,
    const std::function<Inputs(std::int64_t)>& at = [](std::int64_t) { return Inputs{}; }) {
  Ticks sent;
  for (std::int64_t tick = 0; tick < end; ++tick) {
    const Inputs in = at(tick);
    if (schedule.due(tick, in.changed, in.active, in.fault_cycle)) sent.push_back(tick);
  }
  return sent;
}

/// Changes at exactly `ticks`.
std::function<Inputs(std::int64_t)> changes_at(Ticks ticks) {
  return [ticks](std::int64_t tick) {
    return Inputs{.changed = std::find(ticks.begin(), ticks.end(), tick) != ticks.end()};
  };
}

TEST(SendSchedule, CyclicStartsAtItsStartDelay) {
  const SendSchedule cyclic(SendTicks{.cycle = 10, .start = 5});
  EXPECT_FALSE(cyclic.watches_values());
  EXPECT_EQ(run(cyclic, 50), (Ticks{5, 15, 25, 35, 45}));
  EXPECT_EQ(run(SendSchedule(SendTicks{.cycle = 20}), 61), (Ticks{0, 20, 40, 60}));
}

TEST(SendSchedule, ACycleFaultChangesThePeriodFromTheNextFrameOn) {
  // Every 10 ticks; a fault makes it every 3 from tick 20 to 29, then the cycle resumes.
  const Ticks sent = run(SendSchedule(SendTicks{.cycle = 10}), 50, [](std::int64_t tick) {
    return Inputs{.fault_cycle = tick >= 20 && tick < 30 ? 3 : 0};
  });
  EXPECT_EQ(sent, (Ticks{0, 10, 20, 23, 26, 29, 32, 42}));
}

TEST(SendSchedule, OnChangeWaitsOutItsGap) {
  const SendSchedule on_change(SendTicks{.gap = 10, .on_change = true});
  EXPECT_TRUE(on_change.watches_values());
  // At the start; a change 3 ticks later waits until 10 (the gap after the start's frame); a
  // change long after goes out at once.
  EXPECT_EQ(run(on_change, 60, changes_at({3, 25})), (Ticks{0, 10, 25}));
  // Two changes inside one gap make one frame.
  EXPECT_EQ(run(on_change, 60, changes_at({2, 5, 8})), (Ticks{0, 10}));
}

TEST(SendSchedule, OnChangeRepeatsAndStartsOnlyWhenToldTo) {
  const SendTicks ticks{.start = 3, .repeat = 5, .repetitions = 2, .on_change = true};
  // The start counts as a change: its frame and two repetitions, then a change's three.
  EXPECT_EQ(run(SendSchedule(ticks), 60, changes_at({30})), (Ticks{3, 8, 13, 30, 35, 40}));
  // A change during the repetitions starts them over.
  EXPECT_EQ(run(SendSchedule(ticks), 60, changes_at({10})), (Ticks{3, 8, 10, 15, 20}));

  SendTicks quiet = ticks;
  quiet.at_start = false;  // NoMsgSendType: nothing until a signal changes
  EXPECT_EQ(run(SendSchedule(quiet), 30), Ticks{});
  EXPECT_EQ(run(SendSchedule(quiet), 60, changes_at({30})), (Ticks{30, 35, 40}));
}

TEST(SendSchedule, IfActiveSendsAtOnceThenEveryFastCycleWhileActive) {
  const SendSchedule if_active(SendTicks{.fast = 4});
  EXPECT_TRUE(if_active.watches_values());
  // Inactive until 10, active 10..20, inactive 21..24, active again from 25.
  const Ticks sent = run(if_active, 33, [](std::int64_t tick) {
    return Inputs{.active = (tick >= 10 && tick <= 20) || tick >= 25};
  });
  EXPECT_EQ(sent, (Ticks{10, 14, 18, 25, 29}));
  EXPECT_EQ(run(if_active, 100), Ticks{});  // never active: never sent
}

TEST(SendSchedule, CyclicAndOnChange) {
  const SendSchedule both(SendTicks{.cycle = 10, .on_change = true});
  // The start's change and the first cycle are one frame; a change between cycles adds one;
  // a change on a cycle's tick does not.
  EXPECT_EQ(run(both, 41, changes_at({13, 20})), (Ticks{0, 10, 13, 20, 30, 40}));
  // With a gap (CyclicAndSpontaneousWithDelay) the change waits for the gap after the cycle's
  // frame, which does not move the cycle.
  const SendSchedule delayed(SendTicks{.cycle = 10, .gap = 5, .on_change = true});
  EXPECT_EQ(run(delayed, 41, changes_at({12})), (Ticks{0, 10, 15, 20, 30, 40}));
}

}  // namespace
}  // namespace hil::io::can
