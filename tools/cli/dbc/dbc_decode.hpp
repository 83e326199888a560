#pragma once
// `hilsim dbc decode`: one frame given as candump text, or every frame of a candump log.

#include <filesystem>
#include <string_view>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::cli {

/// Decodes one "ID#HEX" / "ID##FHEX" frame and prints "SIGNAL=VALUE UNIT" lines (or one JSON
/// object). Throws CLI::ValidationError for bad frame text, CLI::Error for an unknown id.
void decode_frame_command(const io::can::dbc::Database& db, std::string_view frame_text, bool json);

/// Decodes a candump log: a block (or JSON line) per frame of a known message; bad lines go to
/// stderr with their line numbers and are skipped; unknown ids are counted and reported at the
/// end. Throws CLI::Error only when the log cannot be opened.
void decode_log_command(const io::can::dbc::Database& db, const std::filesystem::path& log,
                        bool json);

}  // namespace hil::cli
