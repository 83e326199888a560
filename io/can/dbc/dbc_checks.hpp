#pragma once
// What parse_dbc() does after reading the statements:
//  - resolves the well-known attributes (BA_ or the BA_DEF_DEF_ default): GenMsgCycleTime →
//    Message::cycle_time_ms, GenSigStartValue → Signal::start_value_raw, VFrameFormat →
//    Message::fd (StandardCAN_FD, ExtendedCAN_FD), CANFD_BRS → Message::brs;
//  - resolves multiplexing: a signal 'm<n>' without SG_MUL_VAL_ depends on the message's only
//    multiplexor with the range n-n; chains (m<n>M) must not loop; multiplexors are integers;
//  - errors (with DbcReadSpec::lenient: warnings, the signal left out): a multiplexed signal
//    without a multiplexor (or with several to choose from and no SG_MUL_VAL_), a float
//    multiplexor, a loop;
//  - a signal beyond the message length: left out with a warning, or an error for a rig
//    (DbcReadSpec::accept_deviations false);
//  - warnings: overlapping signals that can be in the same frame (same multiplexer branch),
//    a length above 8 without an FD VFrameFormat (the message is taken as FD), an FD length
//    that is no DLC length, VFrameFormat disagreeing with bit 31 of the id, min > max,
//    multiplexor values the multiplexor cannot hold.
// Setup phase (allocates, throws DbcError). Thread-safety: mutates `db` only.

#include "io/can/dbc/dbc_model.hpp"
#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc {

/// Resolves and checks `db` in place; throws DbcError, appends to db.warnings.
void check_database(Database& db, const DbcReadSpec& options);

}  // namespace hil::io::can::dbc
