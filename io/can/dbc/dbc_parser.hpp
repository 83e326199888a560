#pragma once
// Vector DBC reader: VERSION, NS_, BS_, BU_, VAL_TABLE_, BO_, SG_ (Intel/Motorola, signed,
// scaling, range, unit, receivers, multiplexing M / m<n> / m<n>M), BO_TX_BU_, CM_, BA_DEF_,
// BA_DEF_DEF_, BA_, VAL_, SIG_VALTYPE_ and SG_MUL_VAL_ (extended multiplexing). EV_,
// ENVVAR_DATA_, SIG_GROUP_, the *_REL_ attributes, categories and signal types are read past
// (to their ';'). Then the checks of dbc_checks.hpp run.
//
// Every error throws DbcError: "file:line:column: <statement> '<name>': expected <what>, got
// <token>" — e.g. "ravon.dbc:42:17: SG_ 'speed_fl': expected '@0' or '@1' after the bit
// length, got '@2'". What production files commonly write outside the grammar (DbcReadSpec)
// is accepted with a located warning saying what was assumed, or refused for a rig.
// Setup phase only (allocates, throws). Thread-safety: pure functions.

#include <filesystem>
#include <string_view>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can::dbc {

/// How much of what the field writes the reader accepts (docs/can.md "Files from the field").
struct DbcReadSpec {
  /// The field's deviations that change what a frame means — a 29-bit id written without the
  /// 0x80000000 flag, a bare `m` multiplexer indicator, a signal running past its message's
  /// length — are accepted with a warning saying what was assumed (true: the command line), or
  /// refused (false: a rig's own DBC, which should not run on guesses). Deviations that
  /// change nothing on the bus (an identifier starting with a digit, a CM_ without its ';')
  /// are warnings either way.
  bool accept_deviations = true;
  /// Skip a statement or signal that cannot be read, with a located warning, instead of
  /// refusing the file (`--lenient`, a bus's `dbc_lenient: true`). Implies accept_deviations.
  bool lenient = false;
};

/// Parses and checks DBC `text`; `file_name` appears in messages and Database::file_name.
[[nodiscard]] Database parse_dbc(std::string_view text, std::string_view file_name,
                                 const DbcReadSpec& options = {});

/// Reads `path` and parse_dbc()s it (messages name the path as given). Throws DbcError also
/// when the file cannot be read.
[[nodiscard]] Database load_dbc(const std::filesystem::path& path, const DbcReadSpec& options = {});

}  // namespace hil::io::can::dbc
