#pragma once
// SocketCAN interface control through libsocketcan (netlink): bitrate, automatic restart
// delay, controller state, manual restart after bus-off. Setup-phase / non-RT
// operations only: each call is a netlink round trip, and changing anything needs
// CAP_NET_ADMIN. Failures throw std::runtime_error naming the interface, the operation and
// the cause.
// Thread-safety: stateless apart from the interface name; callable from any non-RT thread.

#include <cstdint>
#include <string>

#include "io/can/transport/transport_counters.hpp"

namespace hil::io::can::socketcan {

/// libsocketcan's CAN_STATE_* (linux/can/netlink.h) as a BusState; stopped and sleeping are
/// unknown.
[[nodiscard]] BusState bus_state_from_netlink(int can_state) noexcept;

class SocketCanControl {
 public:
  explicit SocketCanControl(std::string interface) : interface_(std::move(interface)) {}

  /// Takes the interface down, sets the bitrate (the driver picks the bit timing) and brings
  /// it back up.
  void set_bitrate(std::uint32_t bitrate) const;
  /// Delay before the driver restarts the controller after bus-off; 0 disables the automatic
  /// restart (then call restart()).
  void set_restart_ms(std::uint32_t milliseconds) const;
  /// The controller state the driver reports.
  [[nodiscard]] BusState state() const;
  /// Manual restart after bus-off.
  void restart() const;

  [[nodiscard]] const std::string& interface() const noexcept { return interface_; }

 private:
  [[noreturn]] void fail(const std::string& operation) const;
  std::string interface_;
};

}  // namespace hil::io::can::socketcan
