#include "tools/cli/play_command.hpp"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "io/can/trace/frame_filter.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/session/play/play_session.hpp"

namespace hil::cli {
namespace {

/// The flags as typed.
struct PlayFlags {
  session::PlaySpec options;
  std::string loop_gap;
  std::string late = "1ms";
  std::string back_pressure_wait = "100ms";
  std::string json_path;
};

CLI::Validator ids_validator() {
  return {[](std::string& text) -> std::string {
            try {
              (void)io::can::FrameFilter::parse(text);
              return {};
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
          },
          "ID:MASK,…"};
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto flags = std::make_shared<PlayFlags>();
  session::PlaySpec* const options = &flags->options;
  CLI::App* cmd = app.add_subcommand(
      "play", "Send a candump log or Vector ASC file onto a CAN transport with its timing");
  cmd->footer(
      "Each frame is sent at start + (t - t0)/speed on CLOCK_MONOTONIC (absolute deadlines: the\n"
      "time a send takes never accumulates). The whole log is read and checked first: a bad\n"
      "line stops the play before anything is sent (FILE:LINE:COLUMN), unless --lenient.\n"
      "ASC channel N plays as interface can<N-1>. Ctrl-C stops cleanly with the summary.\n"
      "\n"
      "Examples:\n"
      "  hilsim play runs/ravon-20250101T120000Z/can.log --to cannelloni://192.168.1.20:20000\n"
      "  hilsim play drive.asc --to socketcan:can0 --speed 2 --loop 0\n"
      "  hilsim play can.log --map can0=cannelloni://10.0.0.2:20000 --map can1=slcan:/dev/ttyACM0\n"
      "  hilsim play can.log --to virtual:bench --ids 123:7FF,18FF0000:1FFF0000 --speed max\n"
      "\n"
      "Exit status: 0 when every routed frame was sent (or Ctrl-C stopped it), 1 on an error\n"
      "(bad log, bad option, transport that does not open), 3 when frames were not sent.\n"
      "Details: docs/recording.md, \"Replay onto a bus\"; transport URIs: docs/can.md.\n");
  cmd->add_option("LOG", options->log, "candump log (candump -l) or Vector ASC file (.asc)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--to", options->to, "Default destination: a transport URI (docs/can.md)");
  cmd->add_option("--map", options->maps,
                  "IFACE=URI: frames of log interface IFACE go to URI instead; repeatable. "
                  "Interfaces with no destination are skipped and counted")
      ->allow_extra_args(false);
  cmd->add_option("--loop", options->loops,
                  "Play N times, the timeline continuing (0 = until Ctrl-C; default 1)");
  add_speed_option(*cmd, options->speed,
                   "Time scale: realtime (default, the log's timing), 2 = twice as fast, "
                   "max = no waiting");
  cmd->add_option("--ids", options->ids,
                  "candump-style id filter: ID:MASK, ID~MASK (inverse), comma-separated, j = AND")
      ->check(ids_validator());
  cmd->add_flag("--lenient", options->lenient,
                "Skip malformed log lines (counted) instead of stopping");
  cmd->add_option("--loop-gap", flags->loop_gap,
                  "Log time from a loop's last frame to the next loop's first (default: the "
                  "median gap between frames)")
      ->check(duration_in(0, 3600 * rt::kSecond));
  cmd->add_option("--late", flags->late,
                  "A frame sent later than this counts as late (default 1ms)")
      ->check(duration_in(0, 3600 * rt::kSecond));
  cmd->add_option("--back-pressure-wait", flags->back_pressure_wait,
                  "How long to retry a frame the transport refuses as full (default 100ms)")
      ->check(duration_in(0, 60 * rt::kSecond));
  cmd->add_option("--priority", options->priority,
                  "SCHED_FIFO priority of the sending thread when permitted (0 = normal; "
                  "default 80)")
      ->check(CLI::Range(0, 99));
  cmd->add_option("--json", flags->json_path, "Also write the summary figures to this JSON file");
  cmd->add_flag("-q,--quiet", options->quiet, "No progress output");
  cmd->callback([flags] {
    session::PlaySpec o = flags->options;
    if (!flags->loop_gap.empty()) o.loop_gap = duration_value(flags->loop_gap);
    o.late = duration_value(flags->late);
    o.back_pressure_wait = duration_value(flags->back_pressure_wait);
    const session::PlayReport report = session::play_trace(o);
    fmt::print("{}", session::format_play_summary(report));
    if (!flags->json_path.empty()) {
      std::ofstream out(flags->json_path);
      out << session::play_report_json(report).dump(2) << "\n";
      if (!out) throw std::runtime_error("cannot write " + flags->json_path);
    }
    if (report.lost() > 0) throw CLI::RuntimeError(3);
  });
}

}  // namespace hil::cli
