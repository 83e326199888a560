#pragma once
// How a command reports a configuration that did not load: every error on its own line as
// FILE:LINE:COLUMN: FIELD: PROBLEM, then "FAILED <what>: N errors", all on stderr.

#include <string_view>

#include "config/text/config_error.hpp"

namespace hil::session {

void print_config_errors(const config::ConfigErrors& errors, std::string_view what);

}  // namespace hil::session
