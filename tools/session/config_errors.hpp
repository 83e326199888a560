#pragma once
// How a command reports a configuration that did not load: every error on its own line as
// FILE:LINE:COLUMN: FIELD: PROBLEM, then "FAILED <what>: N errors", all on stderr; and the
// warnings of a configuration that did load (its DBC files').

#include <string_view>

#include "config/rig/loader.hpp"
#include "config/text/config_error.hpp"

namespace hil::session {

void print_config_errors(const config::ConfigErrors& errors, std::string_view what);

/// The DBC warnings of the rig's buses ("file.dbc:line:column: warning: ..."), one per line on
/// stderr (a bus with dbc_lenient: what was assumed or skipped).
void print_config_warnings(const config::RigSpec& settings);

}  // namespace hil::session
