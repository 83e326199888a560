#pragma once
// The first difference between the bus a client expects and the one a rig serves, as one
// line for an attach refusal: `region "behaviour" channel 1: expected "a" [rad], the rig has
// "b" [rad/s]`. Setup phase only (allocates).

#include <string>

#include "io/bus/bus_schema.hpp"

namespace hil::io::bus {

/// The first region or channel (name, unit, direction, writer, count) that differs, in region
/// order; "no region or channel differs" when the hashed parts agree.
[[nodiscard]] std::string first_difference(const BusSchema& expected, const BusSchema& actual);

}  // namespace hil::io::bus
