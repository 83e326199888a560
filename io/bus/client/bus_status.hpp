#pragma once
// What a bus client call came to: BusClient's and the C API's status (docs/bus.md "C API
// and Python", its table of codes). Thread-safety: pure.

namespace hil::io::bus {

/// Outcomes of the client calls; the numbers are the C API's HILBUS_* codes (hilbus.h).
enum class BusStatus : int {
  ok = 0,
  stale = 1,          ///< nothing was ever published in that region
  contention = 2,     ///< every read try raced a write
  detached = 3,       ///< the rig went away (or closed the bus)
  schema = 4,         ///< the rig's bus is not the expected one
  not_writer = 5,     ///< the region is not this client's role's
  role_taken = 6,     ///< another client (or the mirror) holds the role
  role_unknown = 7,   ///< no input region is written by that role
  not_permitted = 8,  ///< the role's allow-list does not list this user
  timeout = 9,
  no_endpoint = 10,  ///< nothing answers on the socket
  bad_argument = 11,
  io_error = 12,
};
[[nodiscard]] const char* to_string(BusStatus s) noexcept;

}  // namespace hil::io::bus
