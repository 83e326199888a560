#pragma once
// The simulated ECU's fault memory: one entry per configured DTC with its statusOfDTC byte,
// debounced from monitor results the way an AUTOSAR Dem does it (counter-based debouncing),
// operation cycles, confirmation, aging, ClearDiagnosticInformation, and a small ring of status
// changes that the integrator drains to publish or record them.
//
// Sources, each rule citing its own in dtc_store.cpp:
//  - the status bits and their set/reset conditions: ISO 14229-1:2013 Annex D.2 (status bit
//    definitions, D.2.3), D.6 (fault detection counter), D.7 (confirmation and aging);
//  - debouncing: AUTOSAR CP "Specification of Diagnostic Event Manager" (SWS_Dem), counter
//    based debounce algorithm, SWS_Dem_00416 … SWS_Dem_00423, with its configuration
//    parameters' names (ECUC DemDebounceCounterBasedClass), the failure cycle counter
//    (DemEventFailureCycleCounterThreshold) and aging (DemAgingCycleCounterThreshold).
//
// Setup (constructor) allocates and may throw std::invalid_argument; every other member is
// noexcept and allocates nothing: RT-safe. Not thread-safe: one thread (the RT thread) owns it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hil::io::can::uds {

/// Room for one snapshot record's data (the snapshot DID's value) per DTC.
inline constexpr std::size_t kMaxSnapshotBytes = 32;
/// Status changes kept until the integrator drains them; more are dropped and counted.
inline constexpr std::size_t kStatusChangeCapacity = 64;

/// One DTC and its debouncing (AUTOSAR DemDebounceCounterBasedClass names in brackets).
struct DtcSpec {
  std::uint32_t code = 0;  ///< the 3-byte DTC number, 0x000001 … 0xFFFFFE
  std::string name;        ///< for messages and the console
  /// [DemDebounceCounterIncrementStepSize] added per failed report (1 … 32767)
  std::int32_t fail_step = 1;
  /// [DemDebounceCounterDecrementStepSize] subtracted per passed report (1 … 32768)
  std::int32_t pass_step = 1;
  /// [DemDebounceCounterFailedThreshold] counter ≥ this: failed (1 … 32767); 1 with a step
  /// of 1 fails at the first failed report
  std::int32_t fail_threshold = 1;
  /// [DemDebounceCounterPassedThreshold] counter ≤ this: passed (−32768 … −1)
  std::int32_t pass_threshold = -1;
  /// [DemDebounceCounterJumpDown] with DemDebounceCounterJumpDownValue 0: a passed report
  /// while the counter is above 0 first sets it to 0 (so the defaults pass at once too)
  bool jump_down = true;
  /// [DemEventFailureCycleCounterThreshold] operation cycles with a failure until
  /// confirmedDTC (1: confirmed at the first failure)
  std::uint8_t confirmation_threshold = 1;
  /// [DemAgingCycleCounterThreshold] completed cycles without failure after which a
  /// confirmed DTC is no longer confirmed; 0 = never ages
  std::uint8_t aging_threshold = 40;
};

/// What a report did to the debounce counter (AUTOSAR Dem_EventStatusType's four values).
enum class Debounce : std::uint8_t {
  prefailed,    ///< counter moved up, below the failed threshold
  failed,       ///< counter at the failed threshold: test result failed
  prepassed,    ///< counter moved down, above the passed threshold
  passed,       ///< counter at the passed threshold: test result passed
  unknown_dtc,  ///< no DTC with that index: nothing changed
};

/// One change of a statusOfDTC byte.
struct StatusChange {
  std::int64_t tick = 0;  ///< set_tick()'s value when it happened
  std::size_t dtc = 0;    ///< index in the store
  std::uint8_t old_status = 0;
  std::uint8_t new_status = 0;
};

class DtcStore {
 public:
  /// Validates every spec (ranges above, unique codes); std::invalid_argument naming the DTC
  /// and the field otherwise. Every status starts at 0x50, as after a clear; an operation
  /// cycle is running.
  explicit DtcStore(std::vector<DtcSpec> specs);

  /// One monitor result of DTC `dtc` this monitoring cycle: moves its debounce counter and,
  /// when the counter reaches a threshold, applies the test result to the status byte.
  Debounce report(std::size_t dtc, bool failed) noexcept;

  /// Ends the current operation cycle and starts the next (ISO 14229-1 Annex D.2.3): pending
  /// cleared where the test completed without failure, aging counted, TFTOC cleared, TNCTOC
  /// set, debounce counters back to 0.
  void start_operation_cycle() noexcept;

  /// ClearDiagnosticInformation of `group`: kAllDtcGroups (0xFFFFFF) or one DTC's code.
  /// Statuses to 0x50, counters, snapshots reset. False (nothing cleared) for another group.
  bool clear(std::uint32_t group) noexcept;

  /// The tick stamped on the status changes recorded from now on.
  void set_tick(std::int64_t tick) noexcept { tick_ = tick; }

  [[nodiscard]] std::size_t count() const noexcept { return specs_.size(); }
  [[nodiscard]] const DtcSpec& spec(std::size_t dtc) const noexcept { return specs_[dtc]; }
  /// The index of the DTC with `code`, if any (binary search).
  [[nodiscard]] std::optional<std::size_t> find(std::uint32_t code) const noexcept;

  /// statusOfDTC; 0 for an index out of range.
  [[nodiscard]] std::uint8_t status(std::size_t dtc) const noexcept;
  /// The internal debounce counter (pass_threshold … fail_threshold).
  [[nodiscard]] std::int32_t debounce_counter(std::size_t dtc) const noexcept;
  /// Status changes of this DTC since construction (never reset; wraps at 2^32).
  [[nodiscard]] std::uint32_t change_count(std::size_t dtc) const noexcept;
  /// Times testFailed went 0 → 1 since the last clear (saturates at 255).
  [[nodiscard]] std::uint8_t occurrence_counter(std::size_t dtc) const noexcept;
  /// Completed fault-free operation cycles since confirmedDTC was set or last failed.
  [[nodiscard]] std::uint8_t aging_counter(std::size_t dtc) const noexcept;

  /// Snapshots: each new occurrence (testFailed 0 → 1) asks for one; whoever can read the
  /// snapshot data (the UDS server's tick) stores it. At most kMaxSnapshotBytes are kept.
  [[nodiscard]] bool snapshot_wanted(std::size_t dtc) const noexcept;
  [[nodiscard]] bool any_snapshot_wanted() const noexcept { return snapshots_wanted_ > 0; }
  void store_snapshot(std::size_t dtc, std::span<const std::uint8_t> data) noexcept;
  /// The stored snapshot data; empty if none since the last clear.
  [[nodiscard]] std::span<const std::uint8_t> snapshot(std::size_t dtc) const noexcept;

  /// The oldest unread status change, false if there is none.
  bool pop_change(StatusChange& out) noexcept;
  /// Status changes lost because the ring was full.
  [[nodiscard]] std::uint64_t dropped_changes() const noexcept { return dropped_; }

 private:
  struct Entry {
    std::int32_t counter = 0;
    std::uint8_t status = 0;
    std::uint8_t failed_cycles = 0;
    std::uint8_t aging = 0;
    std::uint8_t occurrences = 0;
    std::uint32_t changes = 0;
    bool snapshot_wanted = false;
    std::uint8_t snapshot_size = 0;
    std::array<std::uint8_t, kMaxSnapshotBytes> snapshot{};
  };

  void qualify_failed(std::size_t dtc) noexcept;
  void qualify_passed(std::size_t dtc) noexcept;
  void set_status(std::size_t dtc, std::uint8_t status) noexcept;
  void reset_entry(std::size_t dtc) noexcept;
  void want_snapshot(Entry& e, bool wanted) noexcept;

  std::vector<DtcSpec> specs_;
  std::vector<Entry> entries_;
  std::vector<std::size_t> by_code_;  ///< indices sorted by code
  std::array<StatusChange, kStatusChangeCapacity> ring_{};
  std::size_t ring_head_ = 0;  ///< oldest unread
  std::size_t ring_size_ = 0;
  std::uint64_t dropped_ = 0;
  std::size_t snapshots_wanted_ = 0;
  std::int64_t tick_ = 0;
};

}  // namespace hil::io::can::uds
