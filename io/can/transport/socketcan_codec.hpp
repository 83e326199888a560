#pragma once
// Pure conversions for SocketCAN, testable without AF_CAN: CanFrame <-> the kernel's
// struct can_frame / canfd_frame (<linux/can.h>), acceptance filters -> struct can_filter, and
// error frames (<linux/can/error.h>) -> what they say about the controller's state.
// Thread-safety: stateless functions.

#include <linux/can.h>
#include <linux/can/error.h>

#include <cstddef>
#include <cstdint>

#include "io/can/can_frame.hpp"
#include "io/can/transport/transport_counters.hpp"
#include "io/can/transport/transport_spec.hpp"

namespace hil::io::can::socketcan {

/// Fills `out` for write(): returns the byte count to write (CAN_MTU for classic frames,
/// CANFD_MTU for FD), or 0 for a frame that is not valid.
[[nodiscard]] std::size_t to_kernel_frame(const CanFrame& frame, canfd_frame& out) noexcept;

/// Reads what read()/recvmsg() returned: `bytes` must be CAN_MTU or CANFD_MTU. False for any
/// other size or a frame that does not make sense (length beyond its format, 11-bit id too big).
[[nodiscard]] bool from_kernel_frame(const canfd_frame& in, std::size_t bytes,
                                     CanFrame& out) noexcept;

/// The kernel form of an acceptance filter: the frame format (EFF bit) and RTR-less matching.
[[nodiscard]] can_filter to_kernel_filter(const CanIdFilter& filter) noexcept;

/// The error classes the transport subscribes to (CAN_RAW_ERR_FILTER): state changes only —
/// controller problems, bus-off, restarted, TX timeout, error counters. Bus and protocol
/// errors (CAN_ERR_BUSERROR, _PROT, _ACK) are left out: they may flood at one per bit error.
inline constexpr can_err_mask_t kErrorMask =
    CAN_ERR_TX_TIMEOUT | CAN_ERR_CRTL | CAN_ERR_BUSOFF | CAN_ERR_RESTARTED | CAN_ERR_CNT;

/// What one error frame says.
struct ErrorReport {
  bool tx_timeout = false;
  bool lost_arbitration = false;
  bool controller = false;                        ///< CAN_ERR_CRTL: see the state fields
  bool protocol = false;                          ///< CAN_ERR_PROT
  bool transceiver = false;                       ///< CAN_ERR_TRX
  bool no_ack = false;                            ///< CAN_ERR_ACK
  bool bus_off = false;                           ///< CAN_ERR_BUSOFF
  bool bus_error = false;                         ///< CAN_ERR_BUSERROR
  bool restarted = false;                         ///< CAN_ERR_RESTARTED
  bool rx_overflow = false, tx_overflow = false;  ///< controller buffer overflows
  bool warning = false;                           ///< RX or TX error counter reached 96
  bool passive = false;                           ///< RX or TX error counter reached 128
  bool back_to_active = false;                    ///< CAN_ERR_CRTL_ACTIVE
  bool has_counters = false;                      ///< CAN_ERR_CNT: the two counters below are valid
  std::uint8_t tx_error_count = 0, rx_error_count = 0;
};

/// Decodes an error frame (frame.error() must be true; anything else yields an empty report).
[[nodiscard]] ErrorReport decode_error_frame(const CanFrame& frame) noexcept;

/// The controller state after `report`, starting from `state`. Bus-off wins; a restart or
/// "back to active" returns to error-active; passive and warning flags set those states;
/// otherwise the error counters decide (>= 128 passive, >= 96 warning) when present.
[[nodiscard]] BusState next_bus_state(BusState state, const ErrorReport& report) noexcept;

}  // namespace hil::io::can::socketcan
