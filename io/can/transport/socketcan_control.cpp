#include "io/can/transport/socketcan_control.hpp"

#include <libsocketcan.h>
#include <linux/can/netlink.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace hil::io::can::socketcan {

BusState bus_state_from_netlink(int can_state) noexcept {
  switch (can_state) {
    case CAN_STATE_ERROR_ACTIVE:
      return BusState::error_active;
    case CAN_STATE_ERROR_WARNING:
      return BusState::error_warning;
    case CAN_STATE_ERROR_PASSIVE:
      return BusState::error_passive;
    case CAN_STATE_BUS_OFF:
      return BusState::bus_off;
    default:
      return BusState::unknown;
  }
}

void SocketCanControl::fail(const std::string& operation) const {
  const int error = errno;
  std::string message =
      "CAN interface '" + interface_ + "': cannot " + operation + " (libsocketcan/netlink";
  if (error != 0) message += ": " + std::system_category().message(error);
  message +=
      "; does the interface exist, is it a CAN device, and does the process have "
      "CAP_NET_ADMIN?)";
  throw std::runtime_error(message);
}

void SocketCanControl::set_bitrate(std::uint32_t bitrate) const {
  errno = 0;
  if (::can_do_stop(interface_.c_str()) != 0) fail("take it down to set the bitrate");
  errno = 0;
  if (::can_set_bitrate(interface_.c_str(), bitrate) != 0) {
    fail("set the bitrate to " + std::to_string(bitrate) + " bit/s");
  }
  errno = 0;
  if (::can_do_start(interface_.c_str()) != 0) fail("bring it up after setting the bitrate");
}

void SocketCanControl::set_restart_ms(std::uint32_t milliseconds) const {
  errno = 0;
  if (::can_set_restart_ms(interface_.c_str(), milliseconds) != 0) {
    fail("set restart-ms to " + std::to_string(milliseconds));
  }
}

BusState SocketCanControl::state() const {
  int state = 0;
  errno = 0;
  if (::can_get_state(interface_.c_str(), &state) != 0) fail("read the controller state");
  return bus_state_from_netlink(state);
}

void SocketCanControl::restart() const {
  errno = 0;
  if (::can_do_restart(interface_.c_str()) != 0) fail("restart the controller");
}

}  // namespace hil::io::can::socketcan
