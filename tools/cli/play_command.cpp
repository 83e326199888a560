#include "tools/cli/play_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>

#include "io/can/trace/frame_filter.hpp"
#include "io/can/trace/trace_loader.hpp"
#include "io/can/trace/trace_player.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/session/harness.hpp"
#include "tools/session/play_report.hpp"

namespace hil::cli {
namespace {

using io::can::Transport;

struct PlayOptions {
  std::string log;
  std::string to;
  std::vector<std::string> maps;
  std::uint64_t loops = 1;
  session::Speed speed;  ///< realtime: the log's own timing
  std::string ids;
  bool lenient = false;
  std::string loop_gap;
  std::string late = "1ms";
  std::string back_pressure_wait = "100ms";
  int priority = 80;
  std::string json_path;
  bool quiet = false;
};

/// The trace player's time scale: 0 = no waiting.
double player_speed(const session::Speed& speed) {
  switch (speed.mode) {
    case session::Speed::Mode::max:
      return 0.0;
    case session::Speed::Mode::realtime:
      return 1.0;
    case session::Speed::Mode::factor:
      break;
  }
  return speed.factor;
}

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

/// The transports: one per distinct URI, and the route of each log interface.
struct Destinations {
  std::map<std::string, std::unique_ptr<Transport>> by_uri;
  std::vector<Transport*> routes;  // by trace interface; nullptr: no destination
  std::vector<std::string> unrouted;
};

Destinations open_destinations(const PlayOptions& o, const io::can::Trace& trace) {
  std::map<std::string, std::string> uri_of_interface;
  for (const std::string& map : o.maps) {
    const std::size_t eq = map.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == map.size()) {
      throw std::invalid_argument("--map '" + map + "': expected IFACE=URI, e.g. can0=virtual:x");
    }
    const std::string iface = map.substr(0, eq);
    if (!uri_of_interface.emplace(iface, map.substr(eq + 1)).second) {
      throw std::invalid_argument("--map: interface '" + iface + "' is mapped twice");
    }
    if (std::ranges::find(trace.interfaces(), iface) == trace.interfaces().end()) {
      spdlog::warn("--map {}: the log has no frames of interface '{}' (it has {})", map, iface,
                   fmt::join(trace.interfaces(), ", "));
    }
  }
  Destinations d;
  for (const std::string& iface : trace.interfaces()) {
    const auto mapped = uri_of_interface.find(iface);
    const std::string uri = mapped != uri_of_interface.end() ? mapped->second : o.to;
    if (uri.empty()) {
      d.routes.push_back(nullptr);
      d.unrouted.push_back(iface);
      continue;
    }
    std::unique_ptr<Transport>& t = d.by_uri[uri];
    if (!t) t = io::can::open_transport(uri);
    d.routes.push_back(t.get());
  }
  return d;
}

/// A progress line at most once a second while the sending thread runs.
class PlayProgress {
 public:
  PlayProgress(const io::can::TracePlayer& player, std::uint64_t loops)
      : player_(player), loops_(loops) {}
  void poll() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ < std::chrono::seconds(1)) return;
    last_report_ = now;
    const io::can::PlayProgress p = player_.progress();
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    const std::uint64_t total = player_.frames_per_loop() * loops_;
    fmt::print(stderr, "play: {} of {} frames sent, loop {}{}, {:.1f} s elapsed, {} late\n", p.sent,
               loops_ == 0 ? std::string("∞") : std::to_string(total), p.loop + 1,
               loops_ == 0 ? std::string() : fmt::format(" of {}", loops_), elapsed, p.late);
  }

 private:
  const io::can::TracePlayer& player_;
  std::uint64_t loops_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_report_ = started_;
};

int run_play(const PlayOptions& o) {
  if (o.to.empty() && o.maps.empty()) {
    throw std::invalid_argument("nothing to send to: give --to URI and/or --map IFACE=URI");
  }
  const io::can::FrameFilter filter =
      o.ids.empty() ? io::can::FrameFilter() : io::can::FrameFilter::parse(o.ids);
  const io::can::TraceLoad load = io::can::load_trace(o.log, {.lenient = o.lenient});
  if (load.bad_lines > 0) {
    spdlog::warn("skipped {} malformed lines (--lenient){}", load.bad_lines,
                 load.bad_lines > load.first_bad_lines.size() ? "; the first ones:" : ":");
    for (const std::string& line : load.first_bad_lines) spdlog::warn("  {}", line);
  }
  if (load.trace.empty()) throw std::runtime_error("'" + o.log + "' holds no CAN frame");

  Destinations d = open_destinations(o, load.trace);
  io::can::PlayerOptions options{.speed = player_speed(o.speed),
                                 .loops = o.loops,
                                 .loop_gap = o.loop_gap.empty()
                                                 ? load.trace.median_gap(rt::kMillisecond)
                                                 : duration_value(o.loop_gap),
                                 .late_after = duration_value(o.late),
                                 .back_pressure_timeout = duration_value(o.back_pressure_wait)};
  rt::MonotonicClock clock;
  io::can::TracePlayer player(load.trace, d.routes, filter, options, clock);
  if (!o.quiet) {
    fmt::print(
        stderr, "play: {} ({}) {} frames on {}; {} frames a loop of {} s{}\n", o.log,
        io::can::to_string(load.format), load.trace.size(),
        fmt::join(load.trace.interfaces(), ", "), player.frames_per_loop(),
        static_cast<double>(player.loop_period()) / 1e9,
        o.loops == 1 ? "" : fmt::format(" (loop gap {})", rt::format_duration(options.loop_gap)));
  }
  if (player.frames_per_loop() == 0) spdlog::warn("no frame of the log is routed and passes --ids");

  std::map<std::string, io::can::TransportStats> before;
  for (const auto& [uri, t] : d.by_uri) before[uri] = t->counters().snapshot();

  session::PlayReport report;
  rt::RtStatus status;
  const rt::RtOptions rt_options{.priority = o.priority};
  {
    const rt::RtProcessGuard process(rt_options, status);
    PlayProgress progress(player, o.loops);
    (void)session::run_watched(rt_options, status, [&] { report.counts = player.run(); },
                               {.stop = [&] { player.request_stop(); },
                                .poll =
                                    [&] {
                                      if (!o.quiet) progress.poll();
                                    }});
  }
  report.lateness = player.lateness();
  report.frames_per_loop = player.frames_per_loop();
  report.loops_requested = o.loops;
  report.speed = options.speed;
  report.late_after = options.late_after;
  report.unrouted_interfaces = d.unrouted;
  report.filtered = !filter.empty();
  for (const auto& [uri, t] : d.by_uri) {
    session::TransportDrops drops = session::after_send_drops(
        uri, before.at(uri), t->counters().snapshot(), player.refusals_of(*t));
    if (drops.frames > 0) report.transport_drops.push_back(std::move(drops));
  }
  report.bad_lines = load.bad_lines;
  report.asc_events = load.events;
  report.realtime = status.summary();

  fmt::print("{}", session::format_play_summary(report));
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << session::play_report_json(report).dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
  }
  return report.lost() > 0 ? 3 : 0;
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
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
  cmd->add_option("LOG", o->log, "candump log (candump -l) or Vector ASC file (.asc)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--to", o->to, "Default destination: a transport URI (docs/can.md)");
  cmd->add_option("--map", o->maps,
                  "IFACE=URI: frames of log interface IFACE go to URI instead; repeatable. "
                  "Interfaces with no destination are skipped and counted")
      ->allow_extra_args(false);
  cmd->add_option("--loop", o->loops,
                  "Play N times, the timeline continuing (0 = until Ctrl-C; default 1)");
  add_speed_option(*cmd, o->speed,
                   "Time scale: realtime (default, the log's timing), 2 = twice as fast, "
                   "max = no waiting");
  cmd->add_option("--ids", o->ids,
                  "candump-style id filter: ID:MASK, ID~MASK (inverse), comma-separated, j = AND")
      ->check(ids_validator());
  cmd->add_flag("--lenient", o->lenient, "Skip malformed log lines (counted) instead of stopping");
  cmd->add_option("--loop-gap", o->loop_gap,
                  "Log time from a loop's last frame to the next loop's first (default: the "
                  "median gap between frames)")
      ->check(duration_in(0, 3600 * rt::kSecond));
  cmd->add_option("--late", o->late, "A frame sent later than this counts as late (default 1ms)")
      ->check(duration_in(0, 3600 * rt::kSecond));
  cmd->add_option("--back-pressure-wait", o->back_pressure_wait,
                  "How long to retry a frame the transport refuses as full (default 100ms)")
      ->check(duration_in(0, 60 * rt::kSecond));
  cmd->add_option("--priority", o->priority,
                  "SCHED_FIFO priority of the sending thread when permitted (0 = normal; "
                  "default 80)")
      ->check(CLI::Range(0, 99));
  cmd->add_option("--json", o->json_path, "Also write the summary figures to this JSON file");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress output");
  cmd->callback([o] {
    const int code = run_play(*o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace hil::cli
