// The tick declared once (rt_core/tick_plan.hpp): entries ordered by slot whatever the order
// of adding, each entry run in its slot's phase only, and an executive that continues where
// it stopped (replay drives it in segments) with decimations and offsets intact.

#include "rt_core/tick_plan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"

namespace hil::rt {
namespace {

/// Writes "<name>.<phase>@<tick>" for every phase it runs in.
class Journal final : public Task {
 public:
  Journal(std::string name, std::vector<std::string>& log) : name_(std::move(name)), log_(log) {}
  void read(const TickContext& c) noexcept override { note("read", c); }
  void update(const TickContext& c) noexcept override { note("update", c); }
  void write(const TickContext& c) noexcept override { note("write", c); }

 private:
  void note(const char* phase, const TickContext& c) {
    log_.push_back(name_ + "." + phase + "@" + std::to_string(c.tick));
  }
  std::string name_;
  std::vector<std::string>& log_;
};

TEST(TickPlan, OrdersBySlotAndRunsEachEntryInItsPhaseOnly) {
  std::vector<std::string> log;
  Journal can("can", log), vehicle("vehicle", log), events("events", log), ecu("ecu", log);
  TickPlan plan;  // added out of order on purpose
  plan.add(Slot::can_tx, "can_tx", can);
  plan.add(Slot::models, "vehicle", vehicle);
  plan.add(Slot::scenario_events, "events", events);
  plan.add(Slot::can_rx, "can_rx", can);
  plan.add(Slot::peer_tx, "ecu_tx", ecu);
  plan.add(Slot::peer_rx, "ecu_rx", ecu);

  std::vector<std::string> names;
  for (const TaskEntry& e : plan.entries()) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ecu_rx", "can_rx", "events", "vehicle", "ecu_tx",
                                             "can_tx"}));

  VirtualClock clock;
  Executive exec({.period = kMillisecond}, plan.entries(), clock);
  ASSERT_EQ(exec.run(1).ticks, 1);
  EXPECT_EQ(log, (std::vector<std::string>{"ecu.read@0", "can.read@0", "events.read@0",
                                           "vehicle.update@0", "ecu.write@0", "can.write@0"}));
}

TEST(TickPlan, EverySlotHasANameAndAPhaseInOrder) {
  Phase previous = Phase::read;
  for (std::size_t i = 0; i < kSlotCount; ++i) {
    const auto slot = static_cast<Slot>(i);
    EXPECT_FALSE(to_string(slot).empty());
    EXPECT_GE(static_cast<int>(phase_of(slot)), static_cast<int>(previous)) << to_string(slot);
    previous = phase_of(slot);
  }
  EXPECT_EQ(phase_of(Slot::judge), Phase::write);  // the judge observes after every model
  EXPECT_EQ(phase_of(Slot::fault_in), Phase::read);
}

TEST(Executive, ContinuesInSegmentsWithDecimationAndOffset) {
  std::vector<std::string> whole_log, segmented_log;
  Journal whole("t", whole_log), segmented("t", segmented_log);
  const auto entries = [](Task& t) {
    return std::vector<TaskEntry>{
        {.name = "t", .task = &t, .decimation = 4, .offset = 1, .phases = kAllPhases}};
  };
  VirtualClock c1, c2;
  Executive one(ExecutiveConfig{.period = kMillisecond}, entries(whole), c1);
  Executive parts(ExecutiveConfig{.period = kMillisecond}, entries(segmented), c2);

  EXPECT_EQ(one.run(23).ticks, 23);
  EXPECT_EQ(parts.run(2).ticks, 2);
  EXPECT_EQ(parts.run(2).ticks, 2);  // already there: nothing runs
  EXPECT_EQ(parts.run(10).ticks, 10);
  EXPECT_EQ(parts.run(23).ticks, 23);
  EXPECT_EQ(parts.ticks_run(), 23);
  EXPECT_EQ(segmented_log, whole_log);
  // due on 1, 5, 9, 13, 17, 21: three phases each
  ASSERT_EQ(whole_log.size(), 18U);
  EXPECT_EQ(whole_log.front(), "t.read@1");
  EXPECT_EQ(whole_log.back(), "t.write@21");
  EXPECT_EQ(parts.stats().snapshot().ticks, 23);
}

TEST(Executive, APauseBetweenSegmentsIsNotAnOverrun) {
  std::vector<std::string> log;
  Journal t("t", log);
  VirtualClock clock;
  Executive exec({.period = kMillisecond}, {{.name = "t", .task = &t}}, clock);
  ASSERT_EQ(exec.run(5).ticks, 5);
  clock.advance(kSecond);  // paused for a second
  ASSERT_EQ(exec.run(10).ticks, 10);
  EXPECT_EQ(exec.stats().snapshot().overruns, 0U);
}

TEST(Executive, RefusesAnEntryWithoutPhase) {
  std::vector<std::string> log;
  Journal t("t", log);
  VirtualClock clock;
  EXPECT_THROW(Executive({.period = kMillisecond}, {{.name = "t", .task = &t, .phases = 0}}, clock),
               std::invalid_argument);
}

}  // namespace
}  // namespace hil::rt
