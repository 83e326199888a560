#pragma once
// The receiver's check of an E2E-protected payload (E2E_PxxCheck) for profiles 1, 2, 5, 11 and
// 22, with the state the specification keeps between calls, and the mapping of its detailed
// result to the generic status (E2E_PxxMapStatusToSM).
//
// Follows AUTOSAR FO "E2E Protocol Specification" (PRS_E2EProtocol) R20-11 for the checks
// (P01 PRS_E2E_00196, P05 §6.6, P11 PRS_E2E_00516, P22 PRS_E2E_00534) and AUTOSAR CP
// "SWS_E2ELibrary" R20-11 for the P01/P02 checks' SYNC handling and the MapStatusToSM tables
// (P01 SWS_E2E_00382 with profileBehavior, P05 SWS_E2E_00461, the others alike).
//
// check() is called once per receive cycle: with the frame's payload, or with an empty span
// when no new frame arrived this cycle (NewDataAvailable = FALSE). Pure function of its
// arguments; noexcept, no allocation: RT-safe. One CheckState per protected message.

#include <cstdint>
#include <span>

#include "io/can/e2e/profile.hpp"
#include "io/can/e2e/status.hpp"

namespace hil::io::can::e2e {

/// E2E_PxxCheckStatusType of all five profiles in one enumeration.
enum class ProfileStatus : std::uint8_t {
  ok,              ///< OK: counter advanced by 1
  ok_some_lost,    ///< OKSOMELOST: counter advanced by 2 … max_delta_counter
  no_new_data,     ///< NONEWDATA: called with an empty span
  wrong_crc,       ///< P01/P02 WRONGCRC: CRC (or P01 data id nibble) wrong
  error,           ///< P05/P11/P22 ERROR: CRC (or P11 data id nibble) wrong
  repeated,        ///< REPEATED: CRC fine, counter unchanged
  wrong_sequence,  ///< WRONGSEQUENCE: CRC fine, counter jumped beyond max_delta_counter
  initial,         ///< P01/P02 INITIAL: the first good frame since (re)initialisation
  sync,            ///< P01/P02 SYNC: a good frame while the counter is being resynchronised
  input_error,     ///< the check's E2E_E_INPUTERR_WRONG: length that does not fit the spec,
                   ///< or P01/P11's invalid counter 15
};

/// What E2E_PxxCheck keeps between calls; a value-initialised CheckState is the state after
/// E2E_PxxCheckInit (assign CheckState{} to reset).
struct CheckState {
  /// P01/P02 LastValidCounter; P05/P11/P22 Counter (the last counter of a frame with a good
  /// CRC). While wait_for_first_data, P05/P11/P22 use their CheckInit value instead: 0xFF,
  /// 0x0E, 0x0F (so that the specified senders' first frames, 0, 0 and 1, are a step of 1, 1
  /// and 2).
  std::uint8_t last_counter = 0;
  bool wait_for_first_data = true;     ///< no frame with a good CRC since (re)initialisation
  std::uint8_t max_delta_counter = 0;  ///< P01/P02: current MaxDeltaCounter
  std::uint8_t lost_data = 0;          ///< frames lost before the last ok / ok_some_lost one
  std::uint8_t no_new_or_repeated_data_counter = 0;   ///< P01/P02
  std::uint8_t sync_counter = 0;                      ///< P01/P02
  ProfileStatus status = ProfileStatus::no_new_data;  ///< the last check's detailed result
};

/// E2E_PxxMapStatusToSM for `spec`'s profile (CheckReturn E2E_E_OK unless input_error).
[[nodiscard]] Status map_status(const ProfileSpec& spec, ProfileStatus status) noexcept;

/// E2E_PxxCheck of `payload` (empty: no new data this cycle); updates `state` (its `status`
/// holds the detailed result) and returns the mapped generic status.
Status check(const ProfileSpec& spec, CheckState& state,
             std::span<const std::uint8_t> payload) noexcept;

}  // namespace hil::io::can::e2e
