// How a simulated node sends each message (io/can/mapping/send_plan): GenMsgSendType is read by
// its name, so a production file's own list (FixedPeriodic, Event, EventPeriodic, …) and
// Vector's both work; the cycle, fast cycle, start delay, gap and repetitions come from the
// message's BA_ values, else the file's BA_DEF_DEF_ defaults; a send type that cannot work is
// a located problem; describe() says it in words.

#include "io/can/mapping/send_plan.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can {
namespace {

/// The plan of `message`, failing the test (with the problem) when there is none.
SendPlan plan_of(const dbc::Database& db, const std::string& message) {
  const dbc::Message* m = db.find_message(message);
  EXPECT_NE(m, nullptr) << message;
  if (m == nullptr) return {};
  std::string problem;
  const std::optional<SendPlan> plan = plan_sending(db, *m, problem);
  EXPECT_TRUE(plan.has_value()) << message << ": " << problem;
  EXPECT_EQ(problem, "") << message;
  return plan.value_or(SendPlan{});
}

/// The problem `message` has (empty and a failed test when it has a plan).
std::string problem_of(const dbc::Database& db, const std::string& message) {
  const dbc::Message* m = db.find_message(message);
  EXPECT_NE(m, nullptr) << message;
  if (m == nullptr) return {};
  std::string problem;
  EXPECT_EQ(plan_sending(db, *m, problem), std::nullopt) << message;
  return problem;
}

TEST(SendPlan, ProductionNamesMapByNameNotByTheirIndexInVectorsList) {
  const dbc::Database db =
      dbc::load_dbc(HIL_SOURCE_DIR "/tests/tools/restbus/production_names.dbc");

  const SendPlan fixed = plan_of(db, "PCM_EngineData");  // no BA_: the default, FixedPeriodic
  EXPECT_EQ(fixed.send_type, "FixedPeriodic");
  EXPECT_TRUE(fixed.send_type_is_default);
  EXPECT_TRUE(fixed.cyclic);
  EXPECT_FALSE(fixed.on_change);
  EXPECT_FALSE(fixed.if_active);
  EXPECT_EQ(fixed.cycle_ms, 20.0);

  const SendPlan event = plan_of(db, "BCM2_DoorEvent");  // index 1: Event
  EXPECT_EQ(event.send_type, "Event");
  EXPECT_FALSE(event.send_type_is_default);
  EXPECT_FALSE(event.cyclic);
  EXPECT_TRUE(event.on_change);
  EXPECT_TRUE(event.at_start);
  EXPECT_EQ(event.cycle_ms, std::nullopt);

  // Index 2: EventPeriodic here, CyclicIfActive in Vector's list.
  const SendPlan event_periodic = plan_of(db, "BCM2_LampStatus");
  EXPECT_EQ(event_periodic.send_type, "EventPeriodic");
  EXPECT_TRUE(event_periodic.cyclic);
  EXPECT_TRUE(event_periodic.on_change);
  EXPECT_FALSE(event_periodic.if_active);
  EXPECT_EQ(event_periodic.cycle_ms, 100.0);

  // Index 3: NoMsgSendType here, SpontaneousWithDelay (sent at the start) in Vector's list.
  const SendPlan none = plan_of(db, "PCM_Diagnostics");
  EXPECT_EQ(none.send_type, "NoMsgSendType");
  EXPECT_FALSE(none.cyclic);
  EXPECT_FALSE(none.if_active);
  EXPECT_FALSE(none.at_start);
  EXPECT_TRUE(none.on_change);  // only a write of one of its signals sends it

  EXPECT_EQ(fixed.describe(), "cyclic 20 ms (GenMsgSendType \"FixedPeriodic\", the default)");
  EXPECT_EQ(event.describe(), "at the start and on change (GenMsgSendType \"Event\")");
  EXPECT_EQ(event_periodic.describe(),
            "cyclic 100 ms, on change (GenMsgSendType \"EventPeriodic\")");
  EXPECT_EQ(none.describe(), "on change only (GenMsgSendType \"NoMsgSendType\")");
}

TEST(SendPlan, VectorNamesOfTheVehicleDbc) {
  const dbc::Database db = dbc::load_dbc(HIL_SOURCE_DIR "/tests/tools/restbus/vehicle.dbc");

  const SendPlan cyclic = plan_of(db, "ESP_Status");  // BA_ … 0: Cyclic, written explicitly
  EXPECT_EQ(cyclic.send_type, "Cyclic");
  EXPECT_FALSE(cyclic.send_type_is_default);
  EXPECT_TRUE(cyclic.cyclic);
  EXPECT_FALSE(cyclic.on_change);
  EXPECT_EQ(cyclic.cycle_ms, 100.0);

  const SendPlan spontaneous = plan_of(db, "ESP_Event");
  EXPECT_EQ(spontaneous.send_type, "Spontaneous");
  EXPECT_TRUE(spontaneous.on_change);
  EXPECT_TRUE(spontaneous.at_start);
  EXPECT_FALSE(spontaneous.cyclic);
  EXPECT_EQ(spontaneous.repetitions, 0U);

  const SendPlan if_active = plan_of(db, "BCM_Horn");
  EXPECT_EQ(if_active.send_type, "CyclicIfActive");
  EXPECT_TRUE(if_active.if_active);
  EXPECT_FALSE(if_active.cyclic);
  EXPECT_FALSE(if_active.on_change);
  EXPECT_EQ(if_active.cycle_ms, 100.0);
  EXPECT_EQ(if_active.fast_cycle_ms, std::nullopt);  // the cycle time is its active cycle

  const SendPlan with_delay = plan_of(db, "TCU_ShiftEvent");
  EXPECT_EQ(with_delay.send_type, "SpontaneousWithDelay");
  EXPECT_TRUE(with_delay.on_change);
  EXPECT_FALSE(with_delay.cyclic);
  EXPECT_EQ(with_delay.min_gap_ms, 50.0);

  const SendPlan cyclic_spontaneous = plan_of(db, "BCM_Doors");
  EXPECT_EQ(cyclic_spontaneous.send_type, "CyclicAndSpontaneous");
  EXPECT_TRUE(cyclic_spontaneous.cyclic);
  EXPECT_TRUE(cyclic_spontaneous.on_change);
  EXPECT_EQ(cyclic_spontaneous.cycle_ms, 200.0);

  const SendPlan cyclic_delay = plan_of(db, "TCU_Status");
  EXPECT_EQ(cyclic_delay.send_type, "CyclicAndSpontaneousWithDelay");
  EXPECT_TRUE(cyclic_delay.cyclic);
  EXPECT_TRUE(cyclic_delay.on_change);
  EXPECT_EQ(cyclic_delay.cycle_ms, 100.0);
  EXPECT_EQ(cyclic_delay.min_gap_ms, 20.0);

  const SendPlan repetition = plan_of(db, "BCM_Wiper");
  EXPECT_EQ(repetition.send_type, "SpontaneousWithRepetition");
  EXPECT_TRUE(repetition.on_change);
  EXPECT_FALSE(repetition.cyclic);
  EXPECT_EQ(repetition.repetitions, 3U);
  EXPECT_EQ(repetition.fast_cycle_ms, 20.0);

  const SendPlan active_wd = plan_of(db, "VCU_ChargeRequest");
  EXPECT_EQ(active_wd.send_type, "CyclicIfActiveAndSpontaneousWD");
  EXPECT_TRUE(active_wd.if_active);
  EXPECT_TRUE(active_wd.on_change);
  EXPECT_FALSE(active_wd.cyclic);
  EXPECT_EQ(active_wd.cycle_ms, 100.0);
  EXPECT_EQ(active_wd.min_gap_ms, 20.0);

  const SendPlan none = plan_of(db, "GW_Wakeup");
  EXPECT_EQ(none.send_type, "NoMsgSendType");
  EXPECT_FALSE(none.cyclic);
  EXPECT_FALSE(none.if_active);
  EXPECT_FALSE(none.at_start);

  const SendPlan delayed = plan_of(db, "ABS_Diag");  // the default, Cyclic, with a start delay
  EXPECT_TRUE(delayed.send_type_is_default);
  EXPECT_EQ(delayed.start_delay_ms, 500.0);

  EXPECT_EQ(cyclic.describe(), "cyclic 100 ms (GenMsgSendType \"Cyclic\")");
  EXPECT_EQ(spontaneous.describe(), "at the start and on change (GenMsgSendType \"Spontaneous\")");
  EXPECT_EQ(if_active.describe(), "every 100 ms while active (GenMsgSendType \"CyclicIfActive\")");
  EXPECT_EQ(with_delay.describe(),
            "at the start and on change, gap 50 ms (GenMsgSendType \"SpontaneousWithDelay\")");
  EXPECT_EQ(cyclic_spontaneous.describe(),
            "cyclic 200 ms, on change (GenMsgSendType \"CyclicAndSpontaneous\")");
  EXPECT_EQ(cyclic_delay.describe(),
            "cyclic 100 ms, on change, gap 20 ms (GenMsgSendType "
            "\"CyclicAndSpontaneousWithDelay\")");
  EXPECT_EQ(repetition.describe(),
            "at the start and on change, 3 repetitions every 20 ms (GenMsgSendType "
            "\"SpontaneousWithRepetition\")");
  EXPECT_EQ(active_wd.describe(),
            "every 100 ms while active, on change, gap 20 ms (GenMsgSendType "
            "\"CyclicIfActiveAndSpontaneousWD\")");
  EXPECT_EQ(none.describe(), "on change only (GenMsgSendType \"NoMsgSendType\")");
  EXPECT_EQ(delayed.describe(),
            "cyclic 1000 ms, start delay 500 ms (GenMsgSendType \"Cyclic\", the default)");
}

TEST(SendPlan, DefaultsOfTheFileApplyWhereAMessageHasNoValue) {
  const dbc::Database db = dbc::parse_dbc(
      R"(BU_: N
BO_ 1 Plain: 8 N
 SG_ a : 0|8@1+ (1,0) [0|255] "" N
BO_ 2 Own: 8 N
 SG_ b : 0|8@1+ (1,0) [0|255] "" N
BA_DEF_ BO_ "GenMsgSendType" ENUM "Cyclic","Spontaneous","CyclicIfActive","SpontaneousWithDelay","CyclicAndSpontaneous","CyclicAndSpontaneousWithDelay","SpontaneousWithRepetition","CyclicIfActiveAndSpontaneousWD","NoMsgSendType";
BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;
BA_DEF_ BO_ "GenMsgCycleTimeFast" INT 0 65535;
BA_DEF_ BO_ "GenMsgStartDelayTime" INT 0 65535;
BA_DEF_ BO_ "GenMsgDelayTime" INT 0 65535;
BA_DEF_ BO_ "GenMsgNrOfRepetition" INT 0 999;
BA_DEF_DEF_ "GenMsgSendType" "CyclicAndSpontaneousWithDelay";
BA_DEF_DEF_ "GenMsgCycleTime" 50;
BA_DEF_DEF_ "GenMsgCycleTimeFast" 0;
BA_DEF_DEF_ "GenMsgStartDelayTime" 30;
BA_DEF_DEF_ "GenMsgDelayTime" 10;
BA_DEF_DEF_ "GenMsgNrOfRepetition" 2;
BA_ "GenMsgSendType" BO_ 2 1;
BA_ "GenMsgCycleTime" BO_ 2 200;
BA_ "GenMsgDelayTime" BO_ 2 5;
)",
      "defaults.dbc");

  const SendPlan plain = plan_of(db, "Plain");  // every value from BA_DEF_DEF_
  EXPECT_EQ(plain.send_type, "CyclicAndSpontaneousWithDelay");
  EXPECT_TRUE(plain.send_type_is_default);
  EXPECT_TRUE(plain.cyclic);
  EXPECT_TRUE(plain.on_change);
  EXPECT_EQ(plain.cycle_ms, 50.0);
  EXPECT_EQ(plain.fast_cycle_ms, std::nullopt);  // 0 is no fast cycle
  EXPECT_EQ(plain.start_delay_ms, 30.0);
  EXPECT_EQ(plain.min_gap_ms, 10.0);
  // GenMsgNrOfRepetition's default belongs to the …WithRepetition types only
  EXPECT_EQ(plain.repetitions, 0U);
  EXPECT_EQ(plain.describe(),
            "cyclic 50 ms, on change, gap 10 ms, start delay 30 ms "
            "(GenMsgSendType \"CyclicAndSpontaneousWithDelay\", the default)");

  const SendPlan own = plan_of(db, "Own");  // its own values win, the rest are the defaults
  EXPECT_EQ(own.send_type, "Spontaneous");
  EXPECT_FALSE(own.send_type_is_default);
  EXPECT_FALSE(own.cyclic);
  EXPECT_TRUE(own.on_change);
  EXPECT_EQ(own.cycle_ms, 200.0);
  EXPECT_EQ(own.min_gap_ms, 5.0);
  EXPECT_EQ(own.start_delay_ms, 30.0);
  EXPECT_EQ(own.repetitions, 0U);  // Spontaneous: the default count does not apply

  const dbc::Database with_count = dbc::parse_dbc(
      R"(BU_: N
BO_ 1 Counted: 8 N
 SG_ a : 0|8@1+ (1,0) [0|255] "" N
BO_ 2 Repeating: 8 N
 SG_ b : 0|8@1+ (1,0) [0|255] "" N
BA_DEF_ BO_ "GenMsgSendType" ENUM "Cyclic","Spontaneous","SpontaneousWithRepetition";
BA_DEF_ BO_ "GenMsgNrOfRepetition" INT 0 999;
BA_DEF_DEF_ "GenMsgSendType" "Spontaneous";
BA_DEF_DEF_ "GenMsgNrOfRepetition" 2;
BA_ "GenMsgNrOfRepetition" BO_ 1 4;
BA_ "GenMsgSendType" BO_ 2 2;
)",
      "repetitions.dbc");
  EXPECT_EQ(plan_of(with_count, "Counted").repetitions, 4U);    // its own count
  EXPECT_EQ(plan_of(with_count, "Repeating").repetitions, 2U);  // …WithRepetition: the default
}

TEST(SendPlan, SendTypesThatCannotWorkAreLocatedProblems) {
  const dbc::Database db = dbc::parse_dbc(
      R"(BU_: N
BO_ 1 Good: 8 N
 SG_ a : 0|8@1+ (1,0) [0|255] "" N
BO_ 2 NoCycle: 8 N
 SG_ b : 0|8@1+ (1,0) [0|255] "" N
BO_ 3 Odd: 8 N
 SG_ c : 0|8@1+ (1,0) [0|255] "" N
BO_ 4 DefaultOnly: 8 N
 SG_ d : 0|8@1+ (1,0) [0|255] "" N
BO_ 5 IdleActive: 8 N
 SG_ e : 0|8@1+ (1,0) [0|255] "" N
BO_ 6 FastOnly: 8 N
 SG_ f : 0|8@1+ (1,0) [0|255] "" N
BA_DEF_ BO_ "GenMsgSendType" ENUM "Cyclic","Spontaneous","Periodisch","CyclicIfActive";
BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;
BA_DEF_ BO_ "GenMsgCycleTimeFast" INT 0 65535;
BA_DEF_DEF_ "GenMsgSendType" "Cyclic";
BA_DEF_DEF_ "GenMsgCycleTime" 0;
BA_ "GenMsgCycleTime" BO_ 1 10;
BA_ "GenMsgSendType" BO_ 2 0;
BA_ "GenMsgSendType" BO_ 3 2;
BA_ "GenMsgCycleTime" BO_ 3 10;
BA_ "GenMsgSendType" BO_ 5 3;
BA_ "GenMsgSendType" BO_ 6 3;
BA_ "GenMsgCycleTimeFast" BO_ 6 20;
)",
      "problems.dbc");

  EXPECT_TRUE(plan_of(db, "Good").cyclic);

  EXPECT_EQ(problem_of(db, "NoCycle"),
            "problems.dbc:4: BO_ 'NoCycle': GenMsgSendType \"Cyclic\" but no GenMsgCycleTime");
  EXPECT_EQ(problem_of(db, "IdleActive"),
            "problems.dbc:10: BO_ 'IdleActive': GenMsgSendType \"CyclicIfActive\" but no "
            "GenMsgCycleTime or GenMsgCycleTimeFast");

  const std::string unknown = problem_of(db, "Odd");
  EXPECT_TRUE(
      unknown.starts_with("problems.dbc:6: BO_ 'Odd': GenMsgSendType \"Periodisch\" is "
                          "not a send type hilsim knows; expected one of"))
      << unknown;
  for (const char* accepted :
       {"Cyclic", "FixedPeriodic", "Spontaneous", "Event", "OnChange", "CyclicAndSpontaneous",
        "EventPeriodic", "IfActive", "CyclicIfActive", "NoMsgSendType"}) {
    EXPECT_NE(unknown.find(accepted), std::string::npos) << accepted << " in " << unknown;
  }

  // If active with only a fast cycle: that is its cycle.
  const SendPlan fast_only = plan_of(db, "FastOnly");
  EXPECT_TRUE(fast_only.if_active);
  EXPECT_EQ(fast_only.cycle_ms, std::nullopt);
  EXPECT_EQ(fast_only.fast_cycle_ms, 20.0);
  EXPECT_EQ(fast_only.describe(), "every 20 ms while active (GenMsgSendType \"CyclicIfActive\")");

  // "Cyclic" only because the default says so, and no cycle: on change only, no problem.
  const SendPlan default_only = plan_of(db, "DefaultOnly");
  EXPECT_FALSE(default_only.cyclic);
  EXPECT_TRUE(default_only.on_change);
  EXPECT_FALSE(default_only.at_start);
  EXPECT_TRUE(default_only.send_type_is_default);
}

TEST(SendPlan, NoSendTypeAndNoCycleIsOnChangeOnlyNotAtTheStart) {
  const dbc::Database db = dbc::parse_dbc(
      R"(BU_: N
BO_ 1 Bare: 8 N
 SG_ a : 0|8@1+ (1,0) [0|255] "" N
BO_ 2 Timed: 8 N
 SG_ b : 0|8@1+ (1,0) [0|255] "" N
BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;
BA_ "GenMsgCycleTime" BO_ 2 40;
)",
      "bare.dbc");

  const SendPlan bare = plan_of(db, "Bare");
  EXPECT_FALSE(bare.cyclic);
  EXPECT_FALSE(bare.if_active);
  EXPECT_TRUE(bare.on_change);
  EXPECT_FALSE(bare.at_start);
  EXPECT_EQ(bare.send_type, "");
  EXPECT_EQ(bare.describe(), "on change only");

  const SendPlan timed = plan_of(db, "Timed");  // no send type, but a cycle: cyclic
  EXPECT_TRUE(timed.cyclic);
  EXPECT_FALSE(timed.on_change);
  EXPECT_EQ(timed.cycle_ms, 40.0);
  EXPECT_EQ(timed.describe(), "cyclic 40 ms");
}

}  // namespace
}  // namespace hil::io::can
