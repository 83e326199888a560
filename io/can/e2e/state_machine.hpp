#pragma once
// The E2E state machine (E2E_SMCheck): from the generic status of each receive cycle
// (status.hpp) it decides whether a protected message's data may be used (VALID) or not
// (NODATA, INIT, INVALID), counting OK and ERROR results over a sliding window.
//
// Follows AUTOSAR FO "E2E Protocol Specification" (PRS_E2EProtocol) R20-11, section "E2E state
// machine": E2E_SMAddStatus (PRS_E2E_00466), E2E_SMClearStatus (PRS_E2E_00467),
// E2E_SMClearRemainingStatus (PRS_E2E_00607), the window array of WindowSizeValid entries
// (PRS_E2E_00669), the E2EClearToInvalid option; configuration constraints constr_3176 …
// constr_3181, constr_6301, constr_6302. Not modelled: DEINIT (a value-initialised state is the
// state after E2E_SMCheckInit) and the later E2ETransitToInvalidExtended option.
//
// sm_check() is noexcept and allocates nothing: RT-safe; validate() runs at setup.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/can/e2e/status.hpp"

namespace hil::io::can::e2e {

inline constexpr std::size_t kMaxWindowSize = 64;  ///< the largest window validate() accepts

/// E2E_SMStateType without DEINIT.
enum class SmState : std::uint8_t {
  no_data,  ///< NODATA: nothing but errors or no data since initialisation
  init,     ///< INIT: data arrives, not yet enough OK results
  valid,    ///< VALID: the data may be used
  invalid,  ///< INVALID: too many errors, too few OK results
};

/// E2E_SMConfigType: the window of each state and its thresholds.
struct StateMachineSpec {
  std::uint8_t window_size_valid = 1;        ///< WindowSizeValid: also the window array's size
  std::uint8_t window_size_init = 1;         ///< WindowSizeInit (≤ WindowSizeValid)
  std::uint8_t window_size_invalid = 1;      ///< WindowSizeInvalid (≤ WindowSizeValid)
  std::uint8_t min_ok_state_init = 1;        ///< MinOkStateInit: OK results INIT → VALID
  std::uint8_t max_error_state_init = 0;     ///< MaxErrorStateInit: more → INVALID
  std::uint8_t min_ok_state_valid = 1;       ///< MinOkStateValid: fewer → INVALID
  std::uint8_t max_error_state_valid = 0;    ///< MaxErrorStateValid: more → INVALID
  std::uint8_t min_ok_state_invalid = 1;     ///< MinOkStateInvalid: OK results INVALID → VALID
  std::uint8_t max_error_state_invalid = 0;  ///< MaxErrorStateInvalid
  bool clear_to_invalid = false;  ///< ClearToInvalid: empty the window when entering INVALID
};

/// One entry of the status window: only OK and ERROR results are counted.
enum class WindowSlot : std::uint8_t {
  not_available,  ///< E2E_P_NOTAVAILABLE: cleared or not yet written
  ok,             ///< E2E_P_OK
  error,          ///< E2E_P_ERROR
  other,          ///< E2E_P_REPEATED, E2E_P_WRONGSEQUENCE or E2E_P_NONEWDATA
};

/// E2E_SMCheckStateType; a value-initialised SmCheckState is the state after E2E_SMCheckInit
/// (assign SmCheckState{} to reset).
struct SmCheckState {
  std::array<WindowSlot, kMaxWindowSize> window{};  ///< ProfileStatusWindow (first entries)
  std::uint8_t window_top_index = 0;                ///< WindowTopIndex: where the next status goes
  std::uint8_t ok_count = 0;                        ///< OKs in the current state's window
  std::uint8_t error_count = 0;                     ///< ERRORs in the current state's window
  SmState state = SmState::no_data;                 ///< SMState
};

/// "" if `spec` is a usable state machine configuration, else a one-line problem (setup
/// phase; allocates).
[[nodiscard]] std::string validate(const StateMachineSpec& spec);

/// E2E_SMCheck: adds this cycle's `status` to the window of `state` and takes the transition
/// it calls for; returns the new state.
SmState sm_check(const StateMachineSpec& spec, SmCheckState& state, Status status) noexcept;

}  // namespace hil::io::can::e2e
