#include "io/bus/client/bus_status.hpp"

namespace hil::io::bus {

const char* to_string(BusStatus s) noexcept {
  switch (s) {
    case BusStatus::ok:
      return "ok";
    case BusStatus::stale:
      return "stale";
    case BusStatus::contention:
      return "contention";
    case BusStatus::detached:
      return "detached";
    case BusStatus::schema:
      return "schema";
    case BusStatus::not_writer:
      return "not_writer";
    case BusStatus::role_taken:
      return "role_taken";
    case BusStatus::role_unknown:
      return "role_unknown";
    case BusStatus::not_permitted:
      return "not_permitted";
    case BusStatus::timeout:
      return "timeout";
    case BusStatus::no_endpoint:
      return "no_endpoint";
    case BusStatus::bad_argument:
      return "bad_argument";
    case BusStatus::io_error:
      return "io_error";
  }
  return "unknown";
}

}  // namespace hil::io::bus
