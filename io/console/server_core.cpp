// The console thread's core (server_core.hpp): the tap drained into the history, the pump that
// feeds every session at its rates, the operator lock, the event log and the end of the run.
// Everything here runs on the console thread.

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include "io/console/server_core.hpp"
#include "io/record/telemetry_recorder.hpp"

namespace hil::io::console {

namespace detail {

namespace {

constexpr auto kPumpPeriod = std::chrono::milliseconds(10);
constexpr auto kStepPumpPeriod = std::chrono::milliseconds(1);
constexpr auto kValuesPeriod = std::chrono::milliseconds(100);
constexpr auto kStatusPeriod = std::chrono::milliseconds(250);
constexpr auto kIdleStatusPeriod = std::chrono::seconds(1);
constexpr auto kTimingPeriod = std::chrono::seconds(1);
constexpr auto kCanPeriod = std::chrono::milliseconds(500);

std::size_t tap_capacity(std::int64_t period_ns) {
  const auto half_second = static_cast<std::size_t>(5e8 / static_cast<double>(period_ns));
  return std::max<std::size_t>(half_second, 4096);
}

std::uint32_t stride_of(const ConsoleSpec& o, std::int64_t period_ns) {
  return io::record::TelemetryRecorder::decimation_for(period_ns, o.rate_hz);
}

std::size_t history_capacity(const ConsoleSpec& o, std::int64_t period_ns) {
  const double sample_s = static_cast<double>(period_ns) * stride_of(o, period_ns) * 1e-9;
  return std::max<std::size_t>(16, static_cast<std::size_t>(std::ceil(o.history_s / sample_s)));
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool wildcard_match(const std::string& pattern, const std::string& name) noexcept {
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

std::string base64(std::span<const std::uint8_t> bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const std::uint32_t v = (bytes[i] << 16) | (two ? bytes[i + 1] << 8 : 0);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += two ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Core::Core(const ConsoleSpec& o, ConsoleFeed f)
    : options(o),
      feed(std::move(f)),
      token(make_token()),
      tap(*feed.table, feed.table->size(), tap_capacity(feed.run.period_ns)),
      history(feed.table->size(), stride_of(o, feed.run.period_ns),
              history_capacity(o, feed.run.period_ns)),
      row(feed.table->size()) {
  if (feed.table->size() > 0) schema.emplace(*feed.table);
  for (const io::record::TelemetryGroup& g : groups()) {
    foxglove_schemas_base64.push_back(base64(g.file_descriptor_set));
  }
  foxglove_schemas_base64.push_back(base64(io::record::event_file_descriptor_set()));
}

void Core::start_pump() {
  // while a paused run is being stepped, its ticks come fast: taken off the tap every ms
  timer.expires_after(step_granted < step_goal || !pending_steps.empty() ? kStepPumpPeriod
                                                                         : kPumpPeriod);
  timer.async_wait([this](beast::error_code ec) {
    if (ec) return;
    pump();
    start_pump();
  });
}

void Core::drain_tap() {
  std::int64_t tick = 0;
  double wall = now_ms();
  const double period_ms = static_cast<double>(feed.run.period_ns) * 1e-6;
  std::int64_t last = -1;
  while (tap.pop(tick, row)) {
    last = tick;
    const double tick_wall = feed.run.paced && have_first_tick_wall
                                 ? first_tick_wall_ms + static_cast<double>(tick) * period_ms
                                 : wall;
    history.add_tick(tick, row, tick_wall);
    for (ActiveCapture& c : captures) c.capture.add_tick(tick, row);
    if (!waits.empty()) check_waits(tick, row);
  }
  if (last >= 0) drained_through = last + 1;
  if (last >= 0 && feed.run.paced) {  // the earliest the last tick can have run
    const double t0 = wall - static_cast<double>(last) * period_ms;
    first_tick_wall_ms = have_first_tick_wall ? std::min(first_tick_wall_ms, t0) : t0;
    have_first_tick_wall = true;
  }
}

void Core::pump() {
  drain_tap();
  serve_captures();
  const Clock::time_point now = Clock::now();
  // Nobody watching: only the events are kept up, once a second (their backlog is sent to
  // whoever connects)
  const bool watched = !sessions.empty();
  const bool values_due = watched && now - last_values >= kValuesPeriod;
  const bool status_due = now - last_status >= (watched ? kStatusPeriod : kIdleStatusPeriod);
  const bool can_due = watched && now - last_can >= kCanPeriod && feed.can_view;
  std::string values;
  if (values_due) {
    last_values = now;
    values = snapshot_json();
  }
  if (status_due) {
    last_status = now;
    // the histograms (a large copy) once a second and only for watchers; the counts always
    if (executive != nullptr && watched && now - last_timing >= kTimingPeriod) {
      last_timing = now;
      timing = executive->stats().snapshot();
    }
    if (executive != nullptr) {
      timing.ticks = executive->stats().ticks();
      const std::uint64_t overruns = executive->stats().overruns();
      if (overruns > overruns_seen) {
        const std::uint64_t fresh = overruns - overruns_seen;
        overruns_seen = overruns;
        const std::optional<std::int64_t> tick = executive->stats().last_overrun_tick();
        add_event({.tick = tick.value_or(-1),
                   .level = "error",
                   .kind = "overrun",
                   .text = fresh == 1 ? fmt::format("overrun at tick {}", tick.value_or(-1))
                                      : fmt::format("{} overruns, the last at tick {}", fresh,
                                                    tick.value_or(-1))});
      }
    }
    if (feed.poll_events) {
      std::vector<ConsoleEvent> fresh;
      feed.poll_events(fresh);
      for (ConsoleEvent& e : fresh) add_event(std::move(e));
    }
  }
  std::string can;
  if (can_due) {
    last_can = now;
    can = Json{{"type", "can"}, {"buses", feed.can_view()}}.dump();
  }
  if (!feed.clouds.empty()) send_live_clouds();
  for (const std::shared_ptr<WsSession>& s : std::vector(sessions)) {
    if (s->close_if_stalled(now) || !s->open()) continue;
    if (s->protocol == Protocol::foxglove) {
      send_foxglove_messages(*s);
      continue;
    }
    send_console_frames(*s);
    if (values_due) s->send_control(values);
    if (status_due) s->send_control(status_json(*s).dump());
    if (can_due && s->can_view) s->send_control(can);
  }
  advance_steps();  // its acks after the frames of the ticks it ran
}

void Core::session_opened(const std::shared_ptr<WsSession>& s) {
  sessions.push_back(s);
  counters.clients.store(sessions.size(), std::memory_order_relaxed);
}

void Core::session_closed(WsSession* s) {
  if (const std::shared_ptr<WsSession> holder = lock_holder.lock(); holder.get() == s) {
    lock_holder.reset();
    add_event({.tick = timing.ticks,
               .level = "info",
               .kind = "operator",
               .text = fmt::format("operator lock free: {} left", s->peer)});
  }
  std::erase_if(sessions, [s](const std::shared_ptr<WsSession>& p) { return p.get() == s; });
  std::erase_if(captures, [s](const ActiveCapture& c) {
    return c.session.expired() || c.session.lock().get() == s;
  });
  std::erase_if(waits, [s](const PendingWait& w) {
    return w.session.expired() || w.session.lock().get() == s;
  });
  counters.clients.store(sessions.size(), std::memory_order_relaxed);
  update_armed();
}

void Core::update_armed() {
  bool armed = false;
  for (const std::shared_ptr<WsSession>& s : sessions) {
    armed = armed || !s->subscriptions.empty() || !s->foxglove.empty();
  }
  armed = armed || !captures.empty() || !waits.empty();
  if (armed && !tap.armed()) drained_through = std::max(drained_through, ticks_now());
  tap.arm(armed && !ending);
  if (!feed.clouds.empty()) update_cloud_wants();
}

std::int64_t Core::ticks_now() const {
  return executive != nullptr ? static_cast<std::int64_t>(executive->stats().ticks()) : 0;
}

void Core::add_event(ConsoleEvent e) {
  ++events_total;
  const double period_s = static_cast<double>(feed.run.period_ns) * 1e-9;
  Json m{{"type", "event"},
         {"tick", e.tick >= 0 ? Json(e.tick) : Json()},
         {"sim_time_s", e.tick >= 0 ? Json(static_cast<double>(e.tick) * period_s) : Json()},
         {"level", e.level},
         {"kind", e.kind},
         {"text", e.text}};
  std::string text = m.dump();
  events.push_back(text);
  if (events.size() > kEventBacklog) events.pop_front();
  foxglove_events.push_back(std::move(e));
  if (foxglove_events.size() > kEventBacklog) foxglove_events.pop_front();
  for (const std::shared_ptr<WsSession>& s : sessions) {
    if (s->protocol == Protocol::console) s->send_control(text);
  }
}

void Core::run_ended(const std::string& how, std::int64_t ticks) {
  if (ending) return;
  drain_tap();
  ending = how;
  final_ticks = ticks;
  state = "ended";
  if (executive != nullptr) timing = executive->stats().snapshot();
  update_armed();
  std::vector<ConsoleEvent> last;
  if (feed.poll_events) feed.poll_events(last);
  if (feed.final_events) feed.final_events(last);
  for (ConsoleEvent& e : last) add_event(std::move(e));
  if (cloud_encodes > 0) {
    add_event(
        {.tick = ticks,
         .level = "info",
         .kind = "console",
         .text = fmt::format(
             "live point clouds: {} encoded, {:.0f} µs each, {:.0f} µs at most", cloud_encodes,
             static_cast<double>(cloud_encode_ns) * 1e-3 / static_cast<double>(cloud_encodes),
             static_cast<double>(cloud_encode_max_ns) * 1e-3)});
  }
  add_event({.tick = ticks, .level = "info", .kind = "run", .text = fmt::format("run {}", how)});
  for (auto& [weak, req] : pending_stops) {
    if (const std::shared_ptr<WsSession> s = weak.lock()) {
      s->send_control(ack_message(req, ticks).dump());
    }
  }
  pending_stops.clear();
  end_captures_and_waits();
  ack_steps(-1);
  for (const std::shared_ptr<WsSession>& s : sessions) {
    if (s->protocol != Protocol::console) continue;
    send_console_frames(*s);
    s->send_control(status_json(*s).dump());
  }
}

}  // namespace detail

}  // namespace hil::io::console
