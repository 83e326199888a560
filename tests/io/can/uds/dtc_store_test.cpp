// DtcStore: monitor report sequences against the statusOfDTC bytes ISO 14229-1 Annex D's
// rules give, step by step; debouncing as AUTOSAR Dem counts; operation cycles, confirmation,
// aging, clear and the change ring.

#include "io/can/uds/dtc_store.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "io/can/uds/uds_codec.hpp"

namespace hil::io::can::uds {
namespace {

constexpr bool kFail = true;
constexpr bool kPass = false;

DtcStore one(DtcSpec spec) {
  if (spec.code == 0) spec.code = 0x123456;
  return DtcStore({spec});
}

TEST(DtcStore, StartsAsAfterAClear) {
  DtcStore store = one({});
  EXPECT_EQ(store.status(0), 0x50);  // TNCSLC | TNCTOC (Annex D.2.3)
  EXPECT_EQ(store.count(), 1U);
}

TEST(DtcStore, DefaultsFailAndPassAtTheFirstReport) {
  DtcStore store = one({});
  EXPECT_EQ(store.report(0, kFail), Debounce::failed);
  // testFailed, TFTOC, pending, confirmed (threshold 1), TFSLC; both not-completed bits clear
  EXPECT_EQ(store.status(0), 0x2F);
  EXPECT_EQ(store.report(0, kPass), Debounce::passed);
  EXPECT_EQ(store.status(0), 0x2E);  // only testFailed goes
}

TEST(DtcStore, FailsAtTheThirdReportWithThresholdThree) {
  DtcStore store = one({.fail_threshold = 3});
  EXPECT_EQ(store.report(0, kFail), Debounce::prefailed);
  EXPECT_EQ(store.debounce_counter(0), 1);
  EXPECT_EQ(store.status(0), 0x50);  // prefailed changes no status bit
  EXPECT_EQ(store.report(0, kFail), Debounce::prefailed);
  EXPECT_EQ(store.status(0), 0x50);
  EXPECT_EQ(store.report(0, kFail), Debounce::failed);
  EXPECT_EQ(store.debounce_counter(0), 3);
  EXPECT_EQ(store.status(0), 0x2F);
  EXPECT_EQ(store.report(0, kFail), Debounce::failed);  // held at the threshold
  EXPECT_EQ(store.debounce_counter(0), 3);
}

TEST(DtcStore, StepsAndThresholdsAsTheDemCountsThem) {
  // Increment 2 to a failed threshold of 5: 2, 4, 5 (clamped); decrement 3 to −4 without
  // jump-down: 2, −1, −4.
  DtcStore store = one({.fail_step = 2,
                        .pass_step = 3,
                        .fail_threshold = 5,
                        .pass_threshold = -4,
                        .jump_down = false});
  EXPECT_EQ(store.report(0, kFail), Debounce::prefailed);
  EXPECT_EQ(store.report(0, kFail), Debounce::prefailed);
  EXPECT_EQ(store.debounce_counter(0), 4);
  EXPECT_EQ(store.report(0, kFail), Debounce::failed);
  EXPECT_EQ(store.debounce_counter(0), 5);
  EXPECT_EQ(store.status(0), 0x2F);
  EXPECT_EQ(store.report(0, kPass), Debounce::prepassed);
  EXPECT_EQ(store.debounce_counter(0), 2);
  EXPECT_EQ(store.status(0), 0x2F);  // prepassed: testFailed stays
  EXPECT_EQ(store.report(0, kPass), Debounce::prepassed);
  EXPECT_EQ(store.debounce_counter(0), -1);
  EXPECT_EQ(store.report(0, kPass), Debounce::passed);
  EXPECT_EQ(store.debounce_counter(0), -4);
  EXPECT_EQ(store.status(0), 0x2E);
}

TEST(DtcStore, JumpDownResetsAPrefailedCounterBeforeDecrementing) {
  DtcStore store = one({.fail_threshold = 10, .pass_threshold = -2, .jump_down = true});
  for (int i = 0; i < 6; ++i) (void)store.report(0, kFail);
  EXPECT_EQ(store.debounce_counter(0), 6);
  EXPECT_EQ(store.report(0, kPass), Debounce::prepassed);
  EXPECT_EQ(store.debounce_counter(0), -1);  // 6 → 0 (SWS_Dem_00423) → −1 (SWS_Dem_00419)
  EXPECT_EQ(store.report(0, kPass), Debounce::passed);
  EXPECT_EQ(store.status(0), 0x00);  // tested this cycle and since the clear, never failed
}

TEST(DtcStore, PendingStaysUntilACleanCycleAndAgesAfterwards) {
  DtcStore store = one({.aging_threshold = 3});
  (void)store.report(0, kFail);
  EXPECT_EQ(store.status(0), 0x2F);
  store.start_operation_cycle();
  EXPECT_EQ(store.status(0), 0x6D);  // TFTOC cleared, TNCTOC set; failed last cycle: pending
  EXPECT_EQ(store.aging_counter(0), 0);
  (void)store.report(0, kPass);
  EXPECT_EQ(store.status(0), 0x2C);  // pending, confirmed, TFSLC
  store.start_operation_cycle();     // a completed cycle without failure
  EXPECT_EQ(store.status(0), 0x68);  // pending cleared; confirmed ages: 1
  EXPECT_EQ(store.aging_counter(0), 1);
  (void)store.report(0, kPass);
  store.start_operation_cycle();
  EXPECT_EQ(store.aging_counter(0), 2);
  EXPECT_EQ(store.status(0), 0x68);
  (void)store.report(0, kPass);
  store.start_operation_cycle();
  EXPECT_EQ(store.status(0), 0x60);  // aged out: only TFSLC and TNCTOC remain
  EXPECT_EQ(store.aging_counter(0), 0);
}

TEST(DtcStore, ACycleWithoutTestResultChangesNeitherPendingNorAging) {
  DtcStore store = one({.aging_threshold = 1});
  (void)store.report(0, kFail);
  store.start_operation_cycle();  // 0x6D
  store.start_operation_cycle();  // not tested: pending and confirmed stay
  EXPECT_EQ(store.status(0), 0x6D);
  EXPECT_EQ(store.aging_counter(0), 0);
}

TEST(DtcStore, ConfirmsAfterTheConfiguredNumberOfFailedCycles) {
  DtcStore store = one({.confirmation_threshold = 2});
  (void)store.report(0, kFail);
  EXPECT_EQ(store.status(0), 0x27);  // pending, not confirmed
  (void)store.report(0, kFail);      // more failures in the same cycle count once
  EXPECT_EQ(store.status(0), 0x27);
  store.start_operation_cycle();
  EXPECT_EQ(store.status(0), 0x65);
  (void)store.report(0, kFail);
  EXPECT_EQ(store.status(0), 0x2F);  // second failed cycle: confirmed
}

TEST(DtcStore, ACleanCycleRestartsTheConfirmationCount) {
  DtcStore store = one({.confirmation_threshold = 2});
  (void)store.report(0, kFail);
  store.start_operation_cycle();
  (void)store.report(0, kPass);
  store.start_operation_cycle();  // completed without failure: pending off, count 0
  EXPECT_EQ(store.status(0), 0x60);
  (void)store.report(0, kFail);
  EXPECT_EQ(store.status(0), 0x27);  // one failed cycle again, not confirmed
}

TEST(DtcStore, AFailureWhileAgingRestartsAging) {
  DtcStore store = one({.aging_threshold = 2});
  (void)store.report(0, kFail);
  store.start_operation_cycle();
  (void)store.report(0, kPass);
  store.start_operation_cycle();
  EXPECT_EQ(store.aging_counter(0), 1);
  (void)store.report(0, kFail);
  EXPECT_EQ(store.aging_counter(0), 0);
  EXPECT_EQ(store.status(0), 0x2F);
}

TEST(DtcStore, AgingThresholdZeroNeverAges) {
  DtcStore store = one({.aging_threshold = 0});
  (void)store.report(0, kFail);
  for (int cycle = 0; cycle < 300; ++cycle) {
    store.start_operation_cycle();
    (void)store.report(0, kPass);
  }
  EXPECT_NE(store.status(0) & dtc_status::kConfirmedDtc, 0);
}

TEST(DtcStore, OperationCycleRestartsTheDebounceCounter) {
  DtcStore store = one({.fail_threshold = 3});
  (void)store.report(0, kFail);
  (void)store.report(0, kFail);
  store.start_operation_cycle();
  EXPECT_EQ(store.debounce_counter(0), 0);
  EXPECT_EQ(store.report(0, kFail), Debounce::prefailed);
}

TEST(DtcStore, ClearResetsStatusCountersAndSnapshots) {
  DtcStore store({{.code = 0x111111}, {.code = 0x222222}});
  (void)store.report(0, kFail);
  (void)store.report(1, kFail);
  const std::array<std::uint8_t, 2> data{1, 2};
  store.store_snapshot(0, data);
  EXPECT_EQ(store.occurrence_counter(0), 1);
  EXPECT_TRUE(store.clear(0x111111));  // one DTC by its number
  EXPECT_EQ(store.status(0), 0x50);
  EXPECT_EQ(store.status(1), 0x2F);
  EXPECT_EQ(store.occurrence_counter(0), 0);
  EXPECT_TRUE(store.snapshot(0).empty());
  EXPECT_TRUE(store.clear(kAllDtcGroups));
  EXPECT_EQ(store.status(1), 0x50);
  EXPECT_FALSE(store.clear(0xFFFF33));  // the emissions group: not a group of this store
  EXPECT_FALSE(store.clear(0x333333));
}

TEST(DtcStore, CountsOccurrencesAndAsksForASnapshotEachTime) {
  DtcStore store = one({});
  EXPECT_FALSE(store.any_snapshot_wanted());
  (void)store.report(0, kFail);
  EXPECT_TRUE(store.snapshot_wanted(0));
  const std::array<std::uint8_t, 3> first{1, 2, 3};
  store.store_snapshot(0, first);
  EXPECT_FALSE(store.any_snapshot_wanted());
  (void)store.report(0, kFail);  // still failed: no new occurrence
  EXPECT_FALSE(store.snapshot_wanted(0));
  (void)store.report(0, kPass);                            // counter at the passed threshold −1
  EXPECT_EQ(store.report(0, kFail), Debounce::prefailed);  // −1 → 0: no jump-up (SWS_Dem_00425)
  EXPECT_EQ(store.report(0, kFail), Debounce::failed);
  EXPECT_EQ(store.occurrence_counter(0), 2);
  EXPECT_TRUE(store.snapshot_wanted(0));
  EXPECT_EQ(store.snapshot(0).size(), 3U);  // the old one until the new one is stored
}

TEST(DtcStore, RecordsEachStatusChangeWithItsTick) {
  DtcStore store = one({.fail_threshold = 2});
  store.set_tick(7);
  (void)store.report(0, kFail);  // prefailed: no change
  StatusChange change;
  EXPECT_FALSE(store.pop_change(change));
  store.set_tick(8);
  (void)store.report(0, kFail);
  ASSERT_TRUE(store.pop_change(change));
  EXPECT_EQ(change.tick, 8);
  EXPECT_EQ(change.dtc, 0U);
  EXPECT_EQ(change.old_status, 0x50);
  EXPECT_EQ(change.new_status, 0x2F);
  EXPECT_EQ(store.change_count(0), 1U);
  EXPECT_FALSE(store.pop_change(change));
}

TEST(DtcStore, AFullChangeRingDropsAndCounts) {
  DtcStore store = one({});
  for (std::size_t i = 0; i < kStatusChangeCapacity + 5; ++i) {
    if (i % 2 == 0) {
      (void)store.report(0, kFail);  // 0x50 → 0x2F
    } else {
      (void)store.clear(kAllDtcGroups);  // 0x2F → 0x50
    }
  }
  EXPECT_EQ(store.dropped_changes(), 5U);
  EXPECT_EQ(store.change_count(0), kStatusChangeCapacity + 5);
  StatusChange change;
  std::size_t n = 0;
  while (store.pop_change(change)) ++n;
  EXPECT_EQ(n, kStatusChangeCapacity);
}

TEST(DtcStore, UnknownIndexChangesNothing) {
  DtcStore store = one({});
  EXPECT_EQ(store.report(5, kFail), Debounce::unknown_dtc);
  EXPECT_EQ(store.status(5), 0);
  EXPECT_EQ(store.find(0x123456), 0U);
  EXPECT_FALSE(store.find(0x654321).has_value());
}

std::string construction_error(std::vector<DtcSpec> specs) {
  try {
    DtcStore store(std::move(specs));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(DtcStore, RejectsSpecsOutsideTheDemRangesWithTheField) {
  EXPECT_EQ(construction_error({{.code = 0x123456, .name = "brake", .fail_step = 0}}),
            "DTC 0 'brake' (0x123456): fail_step 0 is out of range 1 … 32767");
  EXPECT_EQ(construction_error({{.code = 0x123456, .pass_threshold = 0}}),
            "DTC 0 (0x123456): pass_threshold 0 is out of range -32768 … -1");
  EXPECT_EQ(construction_error({{.code = 0xFFFFFF}}),
            "DTC 0 (0xFFFFFF): code is not a DTC number (0x000001 … 0xFFFFFE; 0xFFFFFF means "
            "all groups)");
  EXPECT_EQ(construction_error({{.code = 0x123456, .confirmation_threshold = 0}}),
            "DTC 0 (0x123456): confirmation_threshold 0 is out of range 1 … 255");
  EXPECT_EQ(construction_error({{.code = 0x1, .name = "a"}, {.code = 0x1, .name = "b"}}),
            "DTC 1 'b' (0x000001): the same code as DTC 0 'a' (0x000001)");
}

}  // namespace
}  // namespace hil::io::can::uds
