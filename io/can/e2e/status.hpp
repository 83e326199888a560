#pragma once
// The profile-independent result of one E2E check cycle (AUTOSAR E2E_PCheckStatusType): what
// every profile's check maps its detailed status to, and what the E2E state machine
// (state_machine.hpp) consumes. AUTOSAR FO "E2E Protocol Specification" (PRS_E2EProtocol),
// section "E2E state machine". Plain values; RT-safe.

#include <cstdint>

namespace hil::io::can::e2e {

/// E2E_PCheckStatusType without E2E_P_NOTAVAILABLE (the state machine's empty window slot,
/// never a check result).
enum class Status : std::uint8_t {
  ok,              ///< E2E_P_OK: new data, CRC and counter fine (some lost within tolerance)
  repeated,        ///< E2E_P_REPEATED: new data, but the counter did not advance
  wrong_sequence,  ///< E2E_P_WRONGSEQUENCE: counter jumped too far (or P01/P02 INITIAL, SYNC)
  error,           ///< E2E_P_ERROR: CRC, data id or input wrong
  no_data,         ///< E2E_P_NONEWDATA: no new data this cycle
};

}  // namespace hil::io::can::e2e
