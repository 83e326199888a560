// The tick declared once (runtime/tick_plan.hpp): stages ordered by slot whatever the order of
// adding, each slot in its phase, decimation and offset passed to the executive.

#include "runtime/tick_plan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"

namespace hil::runtime {
namespace {

/// Writes "<name>@<tick>" each time it runs.
class Journal final : public rt::Stage {
 public:
  Journal(std::string name, std::vector<std::string>& log) : name_(std::move(name)), log_(log) {}
  void run(const rt::TickContext& c) noexcept override {
    log_.push_back(name_ + "@" + std::to_string(c.tick));
  }

 private:
  std::string name_;
  std::vector<std::string>& log_;
};

TEST(TickPlan, OrdersBySlotWhateverTheOrderOfAdding) {
  std::vector<std::string> log;
  Journal can_rx("can_rx", log), can_tx("can_tx", log), vehicle("vehicle", log),
      events("events", log), ecu_rx("ecu_rx", log), ecu_tx("ecu_tx", log);
  TickPlan plan;  // added out of order on purpose
  plan.add(Slot::can_tx, "can_tx", can_tx);
  plan.add(Slot::models, "vehicle", vehicle);
  plan.add(Slot::scenario_events, "events", events);
  plan.add(Slot::can_rx, "can_rx", can_rx);
  plan.add(Slot::peer_tx, "ecu_tx", ecu_tx);
  plan.add(Slot::peer_rx, "ecu_rx", ecu_rx);

  std::vector<std::string> names;
  std::vector<rt::Phase> phases;
  for (const rt::StageEntry& e : plan.entries()) {
    names.push_back(e.name);
    phases.push_back(e.phase);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"ecu_rx", "can_rx", "events", "vehicle", "ecu_tx",
                                             "can_tx"}));
  EXPECT_EQ(phases,
            (std::vector<rt::Phase>{rt::Phase::read, rt::Phase::read, rt::Phase::read,
                                    rt::Phase::update, rt::Phase::write, rt::Phase::write}));

  rt::VirtualClock clock;
  rt::Executive exec({.period = rt::kMillisecond}, plan.entries(), clock);
  ASSERT_EQ(exec.run(1).ticks, 1);
  EXPECT_EQ(log, (std::vector<std::string>{"ecu_rx@0", "can_rx@0", "events@0", "vehicle@0",
                                           "ecu_tx@0", "can_tx@0"}));
}

TEST(TickPlan, EverySlotHasANameAndAPhaseInOrder) {
  rt::Phase previous = rt::Phase::read;
  for (std::size_t i = 0; i < kSlotCount; ++i) {
    const auto slot = static_cast<Slot>(i);
    EXPECT_FALSE(to_string(slot).empty());
    EXPECT_GE(static_cast<int>(phase_of(slot)), static_cast<int>(previous)) << to_string(slot);
    previous = phase_of(slot);
  }
  EXPECT_EQ(phase_of(Slot::judge), rt::Phase::write);  // the judge observes after every model
  EXPECT_EQ(phase_of(Slot::fault_in), rt::Phase::read);
  EXPECT_EQ(phase_of(Slot::models), rt::Phase::update);
  EXPECT_EQ(to_string(Slot::tick_counter), "tick_counter");
}

TEST(TickPlan, ADecimatedStageRunsOnItsTicksAndIsGivenItsStep) {
  std::vector<std::string> log;
  Journal fmu("fmu", log);
  TickPlan plan;
  plan.add(Slot::fmu, "fmu", fmu, /*decimation=*/4, /*offset=*/1);
  const std::vector<rt::StageEntry> entries = plan.entries();
  ASSERT_EQ(entries.size(), 1U);
  EXPECT_EQ(entries[0].decimation, 4U);
  EXPECT_EQ(entries[0].offset, 1U);
  rt::VirtualClock clock;
  rt::Executive exec({.period = rt::kMillisecond}, entries, clock);
  ASSERT_EQ(exec.run(10).ticks, 10);
  EXPECT_EQ(log, (std::vector<std::string>{"fmu@1", "fmu@5", "fmu@9"}));
}

}  // namespace
}  // namespace hil::runtime
