#include "tools/cli/run_command.hpp"

#include <memory>
#include <stdexcept>

#include "rt_core/time.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::cli {

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<session::RunSpec>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Run a rig: the vehicle in the real-time loop, its ECU over CAN, recorded");
  cmd->footer(
      "Examples:\n"
      "  hilsim run                         # RAVON, built-in virtual ECU, lane change, recorded\n"
      "  hilsim run --duration 10s --no-rt  # a short run on a laptop or in CI\n"
      "  hilsim run --speed max             # SIL: as fast as the machine can, same results\n"
      "  hilsim run --rig hmmwv --scenario straight_accel_brake\n"
      "  hilsim run --can cannelloni://192.168.1.20:20000?local=0.0.0.0:20000   # a real ECU\n"
      "  hilsim run --duration 1h --joystick /dev/input/by-id/usb-…-event-joystick   # drive\n"
      "  hilsim run --rig my_rigs/bench7/rig.pbtxt --overlay campaign.pbtxt --record runs/r42\n"
      "\n"
      "Rigs: --rig NAME finds <dir>/NAME/rig.pbtxt in $HILSIM_RIGS, ./hil_rigs, the installed\n"
      "rigs, the source tree's hil_rigs; scenarios: <dir>/scenarios/NAME.pbtxt. Validate a rig\n"
      "first with `hilsim check FILE`.\n"
      "The run directory (runs/<rig>-<UTC time>/ unless --record DIR) holds manifest.json,\n"
      "rig.pbtxt, scenario.pbtxt, can.log, telemetry.mcap and timing.json; `hilsim replay DIR`\n"
      "replays it.\n"
      "Ctrl-C ends the run cleanly with the summary and a complete recording.\n"
      "The operator console (first line on stderr: console: http://127.0.0.1:8642/) shows the\n"
      "run live in a browser and to Foxglove; its Stop button (operator token) ends it like\n"
      "Ctrl-C. --console 0 picks a free port, --console off turns it off.\n"
      "Exit status: 0 completed or stopped with Ctrl-C; 1 setup error; 3 the overrun policy\n"
      "stop_after ended the run; 4 the scenario's pass criteria failed; 5 the run completed but\n"
      "its recording stopped early (disk full, I/O error: manifest.json says at which tick).\n"
      "Telemetry is zstd-compressed; below the disk's free-space watermark it stops and the run\n"
      "goes on (docs/recording.md).\n");
  cmd->add_option("--rig", o->rig.rig, "Rig name or rig file (default ravon)")->type_name("NAME");
  cmd->add_option("--overlay", o->rig.overlays, "Overlay on the rig file, in order; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
  cmd->add_option("--scenario", o->rig.scenario,
                  "Scenario name or file (default: the rig's default_scenario; none: no scenario)")
      ->type_name("NAME");
  cmd->add_option("--duration", o->duration,
                  "Simulated time to run (default: the scenario's, else until Ctrl-C)")
      ->check(duration_in(rt::kMillisecond, rt::kSecond * 7 * 24 * 3600));
  cmd->add_option("--can", o->can_uri,
                  "A real ECU on this CAN transport instead of the rig's bus URI "
                  "(cannelloni://, slcan:, socketcan:, virtual:)")
      ->type_name("URI");
  cmd->add_option("--joystick", o->joystick,
                  "A Linux joystick or wheel for the rig's driver block (its EVDEV controls): "
                  "an evdev device, e.g. /dev/input/by-id/…-event-joystick, or a FIFO of "
                  "input_event records (docs/console.md \"Driving\")")
      ->type_name("PATH");
  cmd->add_option("--ecu", o->ecu, "virtual: the built-in ECU in process; none: no ECU")
      ->check(CLI::IsMember({"virtual", "none"}));
  cmd->add_option("--record", o->record_dir, "Write the recording to this run directory")
      ->type_name("DIR");
  cmd->add_option("--runs-dir", o->runs_dir,
                  "Parent of the automatic run directories (default ./runs)")
      ->type_name("DIR");
  cmd->add_flag("--no-record", o->no_record, "Do not record");
  cmd->add_option("--split-size", o->split_size_mb,
                  "Split the telemetry into files of about this many MiB (telemetry.mcap, "
                  "telemetry.1.mcap, …; each a complete MCAP file; export and replay read them "
                  "as one)")
      ->type_name("MIB")
      ->check(CLI::Range(1.0, 1e9));
  cmd->add_option("--split-duration", o->split_duration,
                  "… or of this much simulated time each (e.g. 1h, 10min)")
      ->check(duration_in(rt::kSecond, rt::kSecond * 7 * 24 * 3600));
  cmd->add_flag("--no-rt", o->no_rt,
                "Normal thread, no memory locking: for machines without RT privileges");
  add_speed_option(*cmd, o->speed,
                   "realtime (default), max (as fast as possible: SIL, CI) or a factor of real "
                   "time (0.5, 2). Only realtime with a transport that is not virtual:; the "
                   "results are the same bits at any speed");
  cmd->add_flag("-q,--quiet", o->quiet,
                "No progress lines nor overrun warnings (the summary still counts overruns)");
  cmd->add_flag("--paused", o->paused,
                "With --speed max: start paused; the loop runs only as far as the console or "
                "the API (step, resume) lets it: deterministic lock-step for CI (docs/api.md)");
  add_console_option(*cmd, o->console);
  cmd->callback([o, cmd] {
    if (o->no_record && o->record_dir) throw CLI::ValidationError("--record", "and --no-record");
    if (o->paused && o->speed.mode != session::Speed::Mode::max) {
      throw CLI::ValidationError("--paused", "needs --speed max (a paced loop cannot wait)");
    }
    if (o->paused && !o->console.enabled) {
      throw CLI::ValidationError("--paused", "needs the console (--console): it is what steps");
    }
    if (cmd->count("--can") > 0 && cmd->count("--ecu") == 0) o->ecu = "none";
    const int code = session::run_rig(*o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace hil::cli
