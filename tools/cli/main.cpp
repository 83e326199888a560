// hilsim: one binary, one subcommand per job.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <exception>

#include "tools/cli/bus_command.hpp"
#include "tools/cli/check_command.hpp"
#include "tools/cli/dbc/dbc_command.hpp"
#include "tools/cli/ecu_command.hpp"
#include "tools/cli/export_command.hpp"
#include "tools/cli/fmu_command.hpp"
#include "tools/cli/play_command.hpp"
#include "tools/cli/replay_command.hpp"
#include "tools/cli/run_command.hpp"
#include "tools/cli/sweep_command.hpp"
#include "tools/cli/timing_command.hpp"
#include "tools/cli/tire_curve_command.hpp"
#include "tools/cli/uds_command.hpp"
#include "tools/session/run/run_directory.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "hilsim — real-time hardware-in-the-loop vehicle simulator.\n"
      "A fixed-step deterministic loop runs the vehicle model and talks to real ECUs over CAN\n"
      "and to co-simulators over a shared-memory bus mirrored over UDP."};
  app.set_version_flag("--version", hil::session::version_line(),
                       "Print the version, git revision and build type, and exit");
  app.require_subcommand(0, 1);
  app.footer("Run 'hilsim <command> --help' for the options and an example of each command.");
  hil::cli::add_run_command(app);
  hil::cli::add_replay_command(app);
  hil::cli::add_timing_command(app);
  hil::cli::add_check_command(app);
  hil::cli::add_tire_curve_command(app);
  hil::cli::add_dbc_command(app);
  hil::cli::add_export_command(app);
  hil::cli::add_play_command(app);
  hil::cli::add_ecu_command(app);
  hil::cli::add_bus_command(app);
  hil::cli::add_sweep_command(app);
  hil::cli::add_fmu_command(app);
  hil::cli::add_uds_command(app);

  // Warnings and errors go to stderr: stdout carries only results (summaries, CSV, JSON)
  spdlog::set_default_logger(spdlog::stderr_color_mt("hilsim"));
  spdlog::set_pattern("%^%l%$: %v");
  try {
    app.parse(argc, argv);
    if (app.get_subcommands().empty()) {  // neither a command nor --version
      throw CLI::RequiredError("A subcommand");
    }
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return 0;
}
