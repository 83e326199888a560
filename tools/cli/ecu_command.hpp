#pragma once

#include <CLI/CLI.hpp>

namespace hil::cli {

/// `hilsim ecu --rig NAME --can URI [--scenario NAME | --speed V] [--duration T]`: the
/// virtual ECU as its own process on a real transport — plays the controller of a scenario,
/// checks the frames the rig sends (timeouts, counters, CRCs, periods), prints progress and
/// a summary (docs/ecu.md).
void add_ecu_command(CLI::App& app);

}  // namespace hil::cli
