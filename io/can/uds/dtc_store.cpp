// DtcStore: AUTOSAR Dem-style counter-based debouncing feeding ISO 14229-1 statusOfDTC bytes.
// "Annex D" below is ISO 14229-1:2013 Annex D; "SWS_Dem_xxxxx" are requirements of AUTOSAR CP
// "Specification of Diagnostic Event Manager" (counter based debounce algorithm).

#include "io/can/uds/dtc_store.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "io/can/uds/uds_codec.hpp"

namespace hil::io::can::uds {
namespace {

namespace st = dtc_status;

std::uint8_t saturating_increment(std::uint8_t v) noexcept {
  return v == 0xFF ? v : static_cast<std::uint8_t>(v + 1);
}

std::string label(std::size_t index, const DtcSpec& spec) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%06X", static_cast<unsigned>(spec.code));
  return "DTC " + std::to_string(index) + (spec.name.empty() ? "" : " '" + spec.name + "'") + " (" +
         code + ")";
}

void check_range(const std::string& what, const char* field, std::int64_t value, std::int64_t lo,
                 std::int64_t hi) {
  if (value < lo || value > hi) {
    throw std::invalid_argument(what + ": " + field + " " + std::to_string(value) +
                                " is out of range " + std::to_string(lo) + " … " +
                                std::to_string(hi));
  }
}

// Ranges of the ECUC parameters (DemDebounceCounterBasedClass): step sizes 1 … 32767 / 32768,
// FailedThreshold 1 … 32767, PassedThreshold −32768 … −1; a DTC number is 3 bytes and
// 0xFFFFFF is the groupOfDTC "all groups" (Annex D.1), never a DTC.
void validate(std::size_t index, const DtcSpec& s) {
  const std::string what = label(index, s);
  if (s.code == 0 || s.code >= kAllDtcGroups) {
    throw std::invalid_argument(what + ": code is not a DTC number (0x000001 … 0xFFFFFE; " +
                                "0xFFFFFF means all groups)");
  }
  check_range(what, "fail_step", s.fail_step, 1, 32767);
  check_range(what, "pass_step", s.pass_step, 1, 32768);
  check_range(what, "fail_threshold", s.fail_threshold, 1, 32767);
  check_range(what, "pass_threshold", s.pass_threshold, -32768, -1);
  check_range(what, "confirmation_threshold", s.confirmation_threshold, 1, 255);
}

}  // namespace

DtcStore::DtcStore(std::vector<DtcSpec> specs)
    : specs_(std::move(specs)), entries_(specs_.size()), by_code_(specs_.size()) {
  if (specs_.size() > 0xFFFF) {
    throw std::invalid_argument("at most 65535 DTCs (ReadDTCInformation counts in 2 bytes), got " +
                                std::to_string(specs_.size()));
  }
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    validate(i, specs_[i]);
    by_code_[i] = i;
    entries_[i].status = st::kInitial;
  }
  std::sort(by_code_.begin(), by_code_.end(),
            [&](std::size_t a, std::size_t b) { return specs_[a].code < specs_[b].code; });
  for (std::size_t k = 1; k < by_code_.size(); ++k) {
    if (specs_[by_code_[k]].code == specs_[by_code_[k - 1]].code) {
      throw std::invalid_argument(label(by_code_[k], specs_[by_code_[k]]) + ": the same code as " +
                                  label(by_code_[k - 1], specs_[by_code_[k - 1]]));
    }
  }
}

std::optional<std::size_t> DtcStore::find(std::uint32_t code) const noexcept {
  const auto it =
      std::lower_bound(by_code_.begin(), by_code_.end(), code,
                       [&](std::size_t i, std::uint32_t c) { return specs_[i].code < c; });
  if (it == by_code_.end() || specs_[*it].code != code) return std::nullopt;
  return *it;
}

Debounce DtcStore::report(std::size_t dtc, bool failed) noexcept {
  if (dtc >= entries_.size()) return Debounce::unknown_dtc;
  const DtcSpec& s = specs_[dtc];
  Entry& e = entries_[dtc];
  if (failed) {
    // SWS_Dem_00418: PREFAILED increments by DemDebounceCounterIncrementStepSize;
    // SWS_Dem_00416: reaching DemDebounceCounterFailedThreshold qualifies FAILED (and the
    // counter stays at the threshold, as SWS_Dem_00420 sets it for a direct FAILED).
    e.counter = std::min(e.counter + s.fail_step, s.fail_threshold);
    if (e.counter < s.fail_threshold) return Debounce::prefailed;
    qualify_failed(dtc);
    return Debounce::failed;
  }
  // SWS_Dem_00422/00423: with jump-down, a PREPASSED while the counter is above
  // DemDebounceCounterJumpDownValue (0 here) first resets it to that value, then SWS_Dem_00419
  // decrements by DemDebounceCounterDecrementStepSize; SWS_Dem_00417: reaching
  // DemDebounceCounterPassedThreshold qualifies PASSED (counter held there, SWS_Dem_00421).
  if (s.jump_down && e.counter > 0) e.counter = 0;
  e.counter = std::max(e.counter - s.pass_step, s.pass_threshold);
  if (e.counter > s.pass_threshold) return Debounce::prepassed;
  qualify_passed(dtc);
  return Debounce::passed;
}

void DtcStore::qualify_failed(std::size_t dtc) noexcept {
  const DtcSpec& s = specs_[dtc];
  Entry& e = entries_[dtc];
  const std::uint8_t old = e.status;
  // A new occurrence (testFailed 0 → 1): count it and take a snapshot (Annex D.2.3, Table
  // D.3 testFailed; the occurrence counter is extended data, §11.3.1.7).
  if ((old & st::kTestFailed) == 0) {
    e.occurrences = saturating_increment(e.occurrences);
    want_snapshot(e, true);
  }
  // The first failure of this operation cycle counts one failure cycle towards
  // DemEventFailureCycleCounterThreshold (Annex D.7, Figure D.4's trip counter).
  if ((old & st::kTestFailedThisOperationCycle) == 0) {
    e.failed_cycles = saturating_increment(e.failed_cycles);
  }
  // Annex D.2.3: a failed result sets testFailed (Table D.3), testFailedThisOperationCycle
  // (D.4), pendingDTC (D.5), testFailedSinceLastClear (D.8) and clears
  // testNotCompletedSinceLastClear (D.7) and testNotCompletedThisOperationCycle (D.9).
  std::uint8_t status = old | st::kTestFailed | st::kTestFailedThisOperationCycle |
                        st::kPendingDtc | st::kTestFailedSinceLastClear;
  status &= static_cast<std::uint8_t>(
      ~(st::kTestNotCompletedSinceLastClear | st::kTestNotCompletedThisOperationCycle));
  // confirmedDTC (Table D.6) once the failure cycles reach the confirmation threshold; the
  // trip counter then starts again. A failure restarts aging (Annex D.7).
  if (e.failed_cycles >= s.confirmation_threshold) {
    status |= st::kConfirmedDtc;
    e.failed_cycles = 0;
  }
  e.aging = 0;
  set_status(dtc, status);
}

void DtcStore::qualify_passed(std::size_t dtc) noexcept {
  // Annex D.2.3: a passed result clears testFailed (Table D.3) and the two test-not-completed
  // bits (Tables D.7, D.9); pending and confirmed wait for the end of the cycle.
  set_status(dtc, entries_[dtc].status & static_cast<std::uint8_t>(~(
                                             st::kTestFailed | st::kTestNotCompletedSinceLastClear |
                                             st::kTestNotCompletedThisOperationCycle)));
}

void DtcStore::start_operation_cycle() noexcept {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    std::uint8_t status = e.status;
    const bool completed = (status & st::kTestNotCompletedThisOperationCycle) == 0;
    const bool failed = (status & st::kTestFailedThisOperationCycle) != 0;
    if (completed && !failed) {
      // Table D.5: pendingDTC is reset at the end of a cycle in which the test completed and
      // never failed; the failure cycle count starts again with it.
      status &= static_cast<std::uint8_t>(~st::kPendingDtc);
      e.failed_cycles = 0;
      // Annex D.7 (Figure D.4/D.11): such a cycle ages a confirmed DTC; at
      // DemAgingCycleCounterThreshold confirmedDTC is reset (Table D.6).
      if ((status & st::kConfirmedDtc) != 0 && specs_[i].aging_threshold > 0) {
        e.aging = saturating_increment(e.aging);
        if (e.aging >= specs_[i].aging_threshold) {
          status &= static_cast<std::uint8_t>(~st::kConfirmedDtc);
          e.aging = 0;
        }
      }
    }
    // Tables D.4, D.9: a new cycle clears testFailedThisOperationCycle and sets
    // testNotCompletedThisOperationCycle. The monitors restart with it: the debounce counter
    // goes back to 0 (Dem re-initialises monitors on an operation cycle restart).
    status &= static_cast<std::uint8_t>(~st::kTestFailedThisOperationCycle);
    status |= st::kTestNotCompletedThisOperationCycle;
    e.counter = 0;
    set_status(i, status);
  }
}

bool DtcStore::clear(std::uint32_t group) noexcept {
  // §11.2: groupOfDTC 0xFFFFFF clears all DTCs (Annex D.1); a DTC number clears that DTC.
  if (group == kAllDtcGroups) {
    for (std::size_t i = 0; i < entries_.size(); ++i) reset_entry(i);
    return true;
  }
  const std::optional<std::size_t> dtc = find(group);
  if (!dtc) return false;
  reset_entry(*dtc);
  return true;
}

void DtcStore::reset_entry(std::size_t dtc) noexcept {
  // Annex D.2.3: after ClearDiagnosticInformation every bit is 0 but testNotCompleted-
  // SinceLastClear and testNotCompletedThisOperationCycle; counters and records go too.
  Entry& e = entries_[dtc];
  e.counter = 0;
  e.failed_cycles = 0;
  e.aging = 0;
  e.occurrences = 0;
  e.snapshot_size = 0;
  want_snapshot(e, false);
  set_status(dtc, st::kInitial);
}

void DtcStore::set_status(std::size_t dtc, std::uint8_t status) noexcept {
  Entry& e = entries_[dtc];
  if (status == e.status) return;
  const StatusChange change{
      .tick = tick_, .dtc = dtc, .old_status = e.status, .new_status = status};
  e.status = status;
  ++e.changes;
  if (ring_size_ == ring_.size()) {
    ++dropped_;
    return;
  }
  ring_[(ring_head_ + ring_size_) % ring_.size()] = change;
  ++ring_size_;
}

bool DtcStore::pop_change(StatusChange& out) noexcept {
  if (ring_size_ == 0) return false;
  out = ring_[ring_head_];
  ring_head_ = (ring_head_ + 1) % ring_.size();
  --ring_size_;
  return true;
}

std::uint8_t DtcStore::status(std::size_t dtc) const noexcept {
  return dtc < entries_.size() ? entries_[dtc].status : 0;
}

std::int32_t DtcStore::debounce_counter(std::size_t dtc) const noexcept {
  return dtc < entries_.size() ? entries_[dtc].counter : 0;
}

std::uint32_t DtcStore::change_count(std::size_t dtc) const noexcept {
  return dtc < entries_.size() ? entries_[dtc].changes : 0;
}

std::uint8_t DtcStore::occurrence_counter(std::size_t dtc) const noexcept {
  return dtc < entries_.size() ? entries_[dtc].occurrences : 0;
}

std::uint8_t DtcStore::aging_counter(std::size_t dtc) const noexcept {
  return dtc < entries_.size() ? entries_[dtc].aging : 0;
}

bool DtcStore::snapshot_wanted(std::size_t dtc) const noexcept {
  return dtc < entries_.size() && entries_[dtc].snapshot_wanted;
}

void DtcStore::want_snapshot(Entry& e, bool wanted) noexcept {
  if (e.snapshot_wanted == wanted) return;
  e.snapshot_wanted = wanted;
  if (wanted) {
    ++snapshots_wanted_;
  } else {
    --snapshots_wanted_;
  }
}

void DtcStore::store_snapshot(std::size_t dtc, std::span<const std::uint8_t> data) noexcept {
  if (dtc >= entries_.size()) return;
  Entry& e = entries_[dtc];
  const std::size_t n = std::min(data.size(), e.snapshot.size());
  std::copy(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), e.snapshot.begin());
  e.snapshot_size = static_cast<std::uint8_t>(n);
  want_snapshot(e, false);
}

std::span<const std::uint8_t> DtcStore::snapshot(std::size_t dtc) const noexcept {
  if (dtc >= entries_.size()) return {};
  const Entry& e = entries_[dtc];
  return {e.snapshot.data(), e.snapshot_size};
}

}  // namespace hil::io::can::uds
