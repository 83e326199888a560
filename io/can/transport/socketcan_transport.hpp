#pragma once
// socketcan:can0 — a Linux CAN_RAW socket: CAN FD (CAN_RAW_FD_FRAMES) where the
// interface's MTU allows it, kernel acceptance filters from a list of ids given at open
// (CAN_RAW_FILTER), error frames for controller state changes (CAN_RAW_ERR_FILTER: bus-off,
// error-passive/warning, restarted) decoded into counters().bus_state and the event counters,
// kernel receive timestamps (SO_TIMESTAMPNS) and kernel queue drops (SO_RXQ_OVFL).
// send() writes at once; ENOBUFS (the interface's tx queue is full) is back-pressure: the
// frame is dropped and counted, never retried, so a stale value never goes out late.
//
// Kernels without AF_CAN (this project's development machines) fail at open with one message
// that says what is missing, how to load it, and which transports work instead.
//
// Thread-safety: as Transport — one polling thread; counters() from any thread; control()
// operations from non-RT threads only.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "io/can/transport/socketcan_control.hpp"
#include "io/can/transport/transport.hpp"
#include "io/can/transport/transport_spec.hpp"
#include "io/can/transport/unique_fd.hpp"

namespace hil::io::can {

/// The error for a kernel without SocketCAN, for `uri`; `cause` is the errno text.
[[nodiscard]] std::string no_socketcan_message(std::string_view uri, std::string_view cause);

class SocketCanTransport final : public Transport {
 public:
  /// Setup phase: opens and binds the socket, applies bitrate/restart-ms through libsocketcan
  /// when given. Throws std::runtime_error: no AF_CAN (no_socketcan_message), no such
  /// interface, or a failed socket option / interface control.
  SocketCanTransport(std::string uri, const std::string& interface, const SocketCanSpec& options);

  /// Timestamps: the kernel's receive time, moved to CLOCK_MONOTONIC. Error frames update
  /// the state and counters and are returned only if deliver_error_frames was set.
  [[nodiscard]] std::size_t receive(std::span<TimedFrame> out, std::int64_t tick) noexcept override;
  /// unsupported for error frames and for FD frames on a classic-only interface.
  [[nodiscard]] SendStatus send(const CanFrame& frame, std::int64_t tick) noexcept override;
  /// Nothing to do: send() writes at once.
  void flush(std::int64_t tick) noexcept override;

  /// Non-RT threads only: bitrate, restart-ms, state, manual restart after bus-off.
  [[nodiscard]] const socketcan::SocketCanControl& control() const noexcept { return control_; }
  /// Error frames one receive() may consume beyond out.size(): bounds the time of one poll.
  static constexpr std::size_t kMaxErrorFramesPerReceive = 64;
  /// Past the tick's receive budget: frames read per recvmmsg and dropped (over_budget) at
  /// most per tick; error frames among them still update the state.
  static constexpr std::size_t kShedBatch = 32;
  static constexpr std::size_t kMaxShedFramesPerTick = 8 * kShedBatch;

  /// Any thread: true when FD frames can be sent and received.
  [[nodiscard]] bool fd_enabled() const noexcept { return fd_enabled_; }

 private:
  void on_error_frame(const CanFrame& frame) noexcept;
  void shed() noexcept;

  UniqueFd socket_;
  socketcan::SocketCanControl control_;
  bool fd_enabled_ = false;
  bool deliver_error_frames_ = false;
  std::uint32_t kernel_drops_seen_ = 0;
};

}  // namespace hil::io::can
