#pragma once
// `hilsim dbc show`: a DBC as a person reads it — messages (id, length, cycle time, FD, senders)
// and their signals (layout, type, scaling, range, unit, multiplexing, receivers, VAL_ names),
// then the value tables.

#include <string>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::cli {

/// The text `hilsim dbc show` prints for `db`.
[[nodiscard]] std::string format_dbc_show(const io::can::dbc::Database& db);

}  // namespace hil::cli
