#include "tools/session/play/play_session.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <memory>

#include "io/can/trace/frame_filter.hpp"
#include "io/can/trace/trace_loader.hpp"
#include "io/can/trace/trace_player.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tools/session/loop/harness.hpp"

namespace hil::session {
namespace {

using io::can::Transport;

/// The trace player's time scale: 0 = no waiting.
double player_speed(const Speed& speed) {
  switch (speed.mode) {
    case Speed::Mode::max:
      return 0.0;
    case Speed::Mode::realtime:
      return 1.0;
    case Speed::Mode::factor:
      break;
  }
  return speed.factor;
}

/// The transports: one per distinct URI, and the route of each log interface.
struct Destinations {
  std::map<std::string, std::unique_ptr<Transport>> by_uri;
  std::vector<Transport*> routes;  // by trace interface; nullptr: no destination
  std::vector<std::string> unrouted;
};

Destinations open_destinations(const PlaySpec& o, const io::can::Trace& trace) {
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

}  // namespace

PlayReport play_trace(const PlaySpec& o) {
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
  io::can::PlayerSpec options{
      .speed = player_speed(o.speed),
      .loops = o.loops,
      .loop_gap = o.loop_gap.value_or(load.trace.median_gap(rt::kMillisecond)),
      .late_after = o.late,
      .back_pressure_timeout = o.back_pressure_wait};
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

  PlayReport report;
  rt::RtStatus status;
  const rt::RtSpec rt_options{.priority = o.priority};
  {
    const rt::RtProcessGuard process(rt_options, status);
    PlayProgress progress(player, o.loops);
    (void)run_watched(rt_options, status, [&] { report.counts = player.run(); },
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
    TransportDrops drops =
        after_send_drops(uri, before.at(uri), t->counters().snapshot(), player.refusals_of(*t));
    if (drops.frames > 0) report.transport_drops.push_back(std::move(drops));
  }
  report.bad_lines = load.bad_lines;
  report.asc_events = load.events;
  report.realtime = status.summary();

  return report;
}

}  // namespace hil::session
