#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim uds --can URI [--tx ID --rx ID] STEP…`: hilsim as a UDS tester over ISO-TP
/// against an ECU — a real one or `hilsim ecu` — printing each request and its decoded
/// response (docs/diagnostics.md "The tester").
void add_uds_command(CLI::App& app);

}  // namespace hil::cli
