#include "tools/cli/replay_command.hpp"

#include <fmt/format.h>

#include <exception>
#include <memory>

#include "rt_core/time.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/session/replay/replay_session.hpp"

namespace hil::cli {

void add_replay_command(CLI::App& app) {
  auto o = std::make_shared<session::ReplaySpec>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay a recorded run into the simulator and compare it frame by frame");
  cmd->footer(
      "Examples:\n"
      "  hilsim replay runs/ravon-20261122T101500Z          # identical, or the first divergence\n"
      "  hilsim replay runs/ravon-… --until 12s --report replay.json\n"
      "  hilsim replay runs/ravon-… --override heavier.pbtxt  # what-if: an overlay on the rig\n"
      "  hilsim replay drive.blf --rig ravon                 # a vehicle trace: candump, ASC, BLF\n"
      "  hilsim replay runs/old-run --tolerance 1e-9 --ignore 'vehicle.wheel.*.slip*'\n"
      "                                                      # recorded before a model change\n"
      "\n"
      "A run directory replays open loop: its rig.pbtxt rebuilds the rig, the frames can.log\n"
      "recorded as received are applied at their ticks, and every frame the simulator sends and\n"
      "every telemetry sample is compared with the recording, bit for bit. A run that differs\n"
      "lists the channels that differ most. Runs recorded by a hilsim whose model arithmetic\n"
      "has since changed replay with --tolerance (docs/performance.md says by how much each\n"
      "release changed it).\n"
      "Exit status: 0 identical (or within --tolerance, or a log replayed), 1 a divergence,\n"
      "2 bad input.\n");
  cmd->add_option("source", o->source, "Run directory, or a CAN log (candump, ASC, BLF) with --rig")
      ->required()
      ->type_name("RUN_DIR|LOG");
  add_speed_option(*cmd, o->speed,
                   "max (default), realtime or a factor of real time, e.g. 0.5: the pace only, "
                   "the comparison is the same");
  cmd->add_option("--until", o->until, "Stop at this simulated time")
      ->check(duration_in(0, rt::kSecond * 7 * 24 * 3600));
  cmd->add_option("--report", o->report, "Also write the comparison as JSON")->type_name("FILE");
  cmd->add_option("--without-fault", o->without_faults,
                  "Leave this fault out (of the rig, the scenario or commands.log): where does "
                  "the run go without it; repeatable")
      ->type_name("NAME");
  cmd->add_option("--override", o->overrides, "Overlay on the recorded rig; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
  cmd->add_option("--rig", o->rig, "Replay a CAN log into this rig (name or file)")
      ->type_name("NAME");
  cmd->add_option("--record", o->record_dir, "With --rig: the run directory for the outputs")
      ->type_name("DIR");
  cmd->add_option("--tolerance", o->tolerance,
                  "Accept a value that differs from the recording by at most REL times the "
                  "largest value its channel recorded (frames still bit for bit): for runs "
                  "recorded before a change to the model's arithmetic")
      ->type_name("REL")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--ignore", o->ignore,
                  "With --tolerance: a channel (wildcards) whose deviations are reported but not "
                  "judged, e.g. 'vehicle.wheel.*.slip*' (0/0 at standstill); repeatable")
      ->type_name("CHANNEL")
      ->allow_extra_args(false)
      ->needs("--tolerance");
  cmd->add_flag("--lenient", o->lenient,
                "Skip malformed log lines (and report how many) instead of stopping");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress output");
  // No console unless asked for: a replay is a comparison, usually from a script
  o->console.enabled = false;
  add_console_option(*cmd, o->console)
      ->description(
          "Serve the operator console (docs/console.md) while replaying: a web page and a "
          "Foxglove WebSocket on [ADDR:]PORT (127.0.0.1 unless given; 0: a free port). "
          "Default: off (no console)");
  cmd->callback([o] {
    int code = 2;
    try {
      code = session::replay(*o);
    } catch (const std::exception& e) {  // unreadable inputs: bad input, not a divergence
      fmt::print(stderr, "error: {}\n", e.what());
    }
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace hil::cli
